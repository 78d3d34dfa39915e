import { z } from "zod";
import { emitEvent } from "../events/emit.js";
import { APIError } from "../http/errors.js";
import type { User } from "../storage/models.js";
import { defineAdminEndpoint, type AdminDeps, type AdminStores } from "./deps.js";
import { findTargetUser, requirePermission, userIdSchema } from "./guard.js";
import { ADMIN_MESSAGES } from "./messages.js";

/**
 * A user's sign-in factors as an administrator sees them (README "Organization policy and administrators"): the
 * kinds and their dates, counts, passkeys by name; never a secret, a code, a hash or a key. And the reset: every
 * second factor, backup code, pending second step and trusted device of the user goes (and, when asked, their
 * passkeys), so a user who lost their authenticator signs in with their first factor alone and enrols again. Both
 * need the `factors` resource (access.ts) and both are logged with the administrator's id.
 *
 * The factors live in the two-factor and passkey modules' tables: a module that is not installed has none to show
 * or remove. One that is installed but turned off still holds them (they apply again once it is back on), so they
 * are shown and reset alike.
 */
const TAGS = ["Admin"] as const;
const dateTime = z.iso.datetime();

const userFactorsSchema = z
  .object({
    userId: z.string(),
    twoFactorEnabled: z.boolean().describe("user.twoFactorEnabled: whether the user meets a second step at sign-in"),
    totp: z
      .object({ enabledAt: dateTime.nullable().describe("When the authenticator was confirmed (null: not recorded)") })
      .nullable()
      .describe("A confirmed authenticator app (TOTP); null when none"),
    totpPending: z.boolean().describe("An authenticator waiting for its first code (not a factor yet)"),
    emailCode: z.object({ enabledAt: dateTime }).nullable().describe("The email code as a second factor; null when not one"),
    backupCodes: z.object({ remaining: z.number().int() }),
    trustedDevices: z.object({ count: z.number().int().describe("Browsers that skip the second step, unexpired") }),
    lockedUntil: dateTime.nullable().describe("The second step is locked after too many wrong codes until then"),
    passkeys: z.array(
      z.object({
        id: z.string(),
        name: z.string().nullable(),
        createdAt: dateTime,
        deviceType: z.string().describe('"singleDevice" or "multiDevice"'),
        backedUp: z.boolean(),
      }),
    ),
  })
  .meta({ id: "UserFactors", description: "A user's sign-in factors, as an administrator sees them: kinds, dates and counts, never secrets" });

/** What the user holds now, read from the modules' stores (bound to a transaction when given one). */
async function factorsOf(runtime: Pick<AdminDeps, "now">, stores: AdminStores, user: User) {
  const now = runtime.now();
  const row = stores.twoFactors ? await stores.twoFactors.findFactor(user.id) : null;
  const backupCodes = stores.twoFactorBackupCodes ? await stores.twoFactorBackupCodes.countBackupCodes(user.id) : 0;
  const trusted = stores.trustedDevices ? await stores.trustedDevices.listTrustedDevices(user.id, now) : [];
  const passkeys = stores.passkeys ? await stores.passkeys.listUserPasskeys(user.id) : [];
  const confirmed = !!row && row.verified && row.secret !== "";
  return {
    userId: user.id,
    twoFactorEnabled: user.twoFactorEnabled === true,
    totp: confirmed ? { enabledAt: row.totpEnabledAt } : null,
    totpPending: !!row && !row.verified && row.secret !== "",
    emailCode: row?.otpEnabledAt ? { enabledAt: row.otpEnabledAt } : null,
    backupCodes: { remaining: backupCodes },
    trustedDevices: { count: trusted.length },
    lockedUntil: row?.lockedUntil && row.lockedUntil > now ? row.lockedUntil : null,
    passkeys: passkeys.map((passkey) => ({
      id: passkey.id,
      name: passkey.name,
      createdAt: passkey.createdAt,
      deviceType: passkey.deviceType,
      backedUp: passkey.backedUp,
    })),
  };
}

export const listUserFactors = defineAdminEndpoint({
  method: "GET",
  path: "/admin/list-user-factors",
  auth: "sensitive",
  query: z.object({ userId: userIdSchema }),
  response: userFactorsSchema,
  summary:
    "A user's sign-in factors: authenticator and email code (with the date each was turned on), backup codes left, trusted devices, passkeys by name and date; never a secret",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, query } = ctx;
    const admin = requirePermission(ctx, { factors: ["list"] }, ADMIN_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_LIST_USERS_FACTORS);
    const user = await findTargetUser(runtime, query.userId);
    const factors = await factorsOf(runtime, runtime.stores, user);
    runtime.logger.info({ userId: user.id, by: admin.user.id }, "sign-in factors viewed by an administrator");
    return factors;
  },
});

export const resetUserFactors = defineAdminEndpoint({
  method: "POST",
  path: "/admin/reset-user-factors",
  auth: "sensitive",
  body: z.object({
    userId: userIdSchema,
    /** Remove the user's passkeys too (default: they stay). */
    includePasskeys: z.boolean().optional(),
  }),
  response: z.object({
    success: z.boolean(),
    removed: z.object({
      totp: z.boolean(),
      emailCode: z.boolean(),
      backupCodes: z.number().int(),
      trustedDevices: z.number().int(),
      passkeys: z.number().int(),
    }),
  }),
  summary:
    "Remove a user's second factors, backup codes, pending second steps and trusted devices (and passkeys with includePasskeys): they sign in with their first factor and enrol again",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, body } = ctx;
    const admin = requirePermission(ctx, { factors: ["reset"] }, ADMIN_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_RESET_USERS_FACTORS);
    // One's own factors are removed on the Security page, behind the password or a fresh session (the step-up).
    if (body.userId === admin.user.id) throw new APIError("BAD_REQUEST", ADMIN_MESSAGES.YOU_CANNOT_RESET_YOUR_OWN_FACTORS);
    const user = await findTargetUser(runtime, body.userId);
    const removed = await runtime.stores.transaction(async (stores) => {
      // The user's row lock, which enrolment takes too: a factor confirmed meanwhile is either counted and removed
      // or comes after the reset, never half of each.
      await stores.users.lockUser(user.id);
      const before = await factorsOf(runtime, stores, user);
      await stores.twoFactors?.removeAllFactors(user.id);
      const passkeys = body.includePasskeys && stores.passkeys ? await stores.passkeys.deleteUserPasskeys(user.id) : 0;
      await emitEvent(stores, ctx, "two_factor.reset", {
        userId: user.id,
        data: { totp: before.totp !== null, emailCode: before.emailCode !== null, passkeysRemoved: passkeys },
      });
      return {
        totp: before.totp !== null,
        emailCode: before.emailCode !== null,
        backupCodes: before.backupCodes.remaining,
        trustedDevices: before.trustedDevices.count,
        passkeys,
      };
    });
    runtime.logger.info({ userId: user.id, by: admin.user.id, removed }, "sign-in factors reset by an administrator");
    return { success: true, removed };
  },
});
