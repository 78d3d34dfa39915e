import { z } from "zod";
import { defineEndpoint } from "../http/endpoint.js";
import { expireTrustCookie, trustCookieOf } from "./cookies.js";

/**
 * Gatehouse's own routes beside Better Auth's (which has no way to read them): what a user holds as second factors,
 * for the web app's security page, and forgetting their trusted devices. Metadata only: kinds, dates, counts and
 * the browsers' user agents, never a secret, a code or a token.
 */
const TAGS = ["Two factor"] as const;
const dateTime = z.iso.datetime();

const trustedDeviceSchema = z.object({
  id: z.string(),
  /** The browser that was trusted, as it said when it was (null when it did not say). */
  userAgent: z.string().nullable(),
  createdAt: dateTime,
  lastUsedAt: dateTime,
  expiresAt: dateTime,
  /** This browser: the trusted device its cookie names. */
  current: z.boolean(),
});

export const getFactors = defineEndpoint({
  method: "GET",
  path: "/two-factor/get-factors",
  auth: "sensitive",
  response: z
    .object({
      twoFactorEnabled: z.boolean().describe("Whether the user's sign-ins meet the second step"),
      totp: z
        .object({ enabledAt: dateTime.nullable() })
        .nullable()
        .describe("A confirmed authenticator app; null when none (one waiting for its first code is not one)"),
      emailCode: z.object({ enabledAt: dateTime }).nullable().describe("The email code as a second factor; null when not one"),
      backupCodes: z.object({ remaining: z.number().int() }),
      trustedDevices: z.array(trustedDeviceSchema).describe("Browsers that skip the second step, the most recently used first"),
    })
    .meta({ id: "OwnFactors", description: "The signed-in user's second factors: kinds, dates and counts, never secrets" }),
  summary: "The signed-in user's second factors (authenticator, email code, backup codes left, trusted browsers); never a secret",
  tags: TAGS,
  async handler(ctx) {
    const { runtime } = ctx;
    const { user } = ctx.session!;
    const now = runtime.now();
    const [row, remaining, devices] = await Promise.all([
      runtime.stores.twoFactors.findFactor(user.id),
      runtime.stores.twoFactorBackupCodes.countBackupCodes(user.id),
      runtime.stores.trustedDevices.listTrustedDevices(user.id, now),
    ]);
    const here = trustCookieOf(ctx, runtime.config)?.id;
    const confirmed = !!row && row.verified && row.secret !== "";
    return {
      twoFactorEnabled: user.twoFactorEnabled,
      totp: confirmed ? { enabledAt: row.totpEnabledAt?.toISOString() ?? null } : null,
      emailCode: row?.otpEnabledAt ? { enabledAt: row.otpEnabledAt.toISOString() } : null,
      backupCodes: { remaining },
      trustedDevices: devices.map((device) => ({
        id: device.id,
        userAgent: device.userAgent,
        createdAt: device.createdAt.toISOString(),
        lastUsedAt: device.lastUsedAt.toISOString(),
        expiresAt: device.expiresAt.toISOString(),
        current: device.id === here,
      })),
    };
  },
});

export const forgetTrustedDevices = defineEndpoint({
  method: "POST",
  path: "/two-factor/forget-trusted-devices",
  auth: "sensitive",
  body: z.object({
    /** One trusted browser (an id from get-factors); without it, every one of the user's. */
    id: z.string().min(1).max(256).optional(),
  }),
  response: z.object({ status: z.boolean(), removed: z.number().int() }),
  summary: "Make one trusted browser, or every one, meet the second step again at its next sign-in",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, body } = ctx;
    const { user } = ctx.session!;
    const removed = body.id
      ? Number(await runtime.stores.trustedDevices.deleteTrustedDevice(user.id, body.id))
      : await runtime.stores.trustedDevices.deleteUserTrustedDevices(user.id);
    // This browser's cookie goes with its device (it would hold nothing any more).
    const here = trustCookieOf(ctx, runtime.config)?.id;
    if (here && (!body.id || body.id === here)) expireTrustCookie(ctx, runtime.config);
    if (removed > 0) runtime.logger.info({ userId: user.id, removed }, "trusted devices forgotten");
    return { status: true, removed };
  },
});
