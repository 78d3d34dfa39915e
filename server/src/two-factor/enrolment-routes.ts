import { z } from "zod";
import { emitEvent } from "../events/emit.js";
import { generateId } from "../crypto/random.js";
import { defineEndpoint } from "../http/endpoint.js";
import { APIError } from "../http/errors.js";
import { expireTrustCookie } from "./cookies.js";
import { TWO_FACTOR_FIXED_CODES, TWO_FACTOR_MESSAGES } from "./messages.js";
import { confirmedTotpSecret } from "./policy.js";
import { replaceBackupCodes, requireStepUp, rotateSession } from "./second-step.js";
import { tokenHash, twoFactorKeys } from "./secrets.js";
import { newTotpSecret, totpURI } from "./totp.js";

/**
 * Enrolment and management of second factors (API-NOTES-PLUGINS.md 2.8), each behind the step-up of
 * second-step.ts requireStepUp (the password, or a fresh session for a user without one). They open sessions
 * through core's one sign-in function (rotations), which takes the whole Runtime: declared with defineEndpoint.
 */
const TAGS = ["Two factor"] as const;
const password = z.string().max(4096).optional();

/** The enrolment of the email code waiting for its proof, bound to the session that asked for it. */
export const enrolmentChallengeId = (sessionId: string) => tokenHash(`enrol-otp:${sessionId}`);

export const enableTwoFactor = defineEndpoint({
  method: "POST",
  path: "/two-factor/enable",
  rateLimit: "credential",
  auth: "sensitive",
  carriesToken: true,
  body: z.object({
    password,
    /** "totp" (an authenticator app, default) or "otp" (a code mailed at each sign-in). */
    method: z.enum(["totp", "otp"]).optional(),
    /** The name the authenticator app shows (default twoFactor.issuer). */
    issuer: z.string().min(1).max(128).optional(),
  }),
  response: z.union([
    z.object({ method: z.literal("totp"), totpURI: z.string(), backupCodes: z.array(z.string()) }),
    z.object({ method: z.literal("otp") }),
  ]),
  summary:
    "Start adding a second factor: an authenticator (answers its otpauth:// URI and new backup codes, shown once; confirm with verify-totp) or the email code (confirm with send-otp and verify-otp)",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, body } = ctx;
    const { user, session } = ctx.session!;
    await requireStepUp(ctx, body.password);
    const now = runtime.now();
    const row = await runtime.stores.twoFactors.findFactor(user.id);

    if (body.method === "otp") {
      if (row?.otpEnabledAt) throw new APIError("BAD_REQUEST", TWO_FACTOR_MESSAGES.OTP_IS_ALREADY_ENABLED);
      // Not a factor yet: the user proves the mailbox with a code (send-otp, verify-otp) before it counts.
      const id = enrolmentChallengeId(session.id);
      const options = runtime.config.twoFactor;
      await runtime.stores.transaction(async (stores) => {
        await stores.twoFactorChallenges.deleteChallenge(id);
        await stores.twoFactorChallenges.createChallenge({
          id,
          kind: "enrol-otp",
          userId: user.id,
          method: null,
          factors: [],
          rememberMe: true,
          attempts: 0,
          otpHash: null,
          otpExpiresAt: null,
          expiresAt: new Date(now.getTime() + (options.twoFactorCookieMaxAge + options.otpOptions.period * 60) * 1000),
          createdAt: now,
        });
      });
      return { method: "otp" as const };
    }

    if (confirmedTotpSecret(runtime, row)) {
      throw new APIError("BAD_REQUEST", TWO_FACTOR_FIXED_CODES.TOTP_ALREADY_ENABLED, { code: "TOTP_ALREADY_ENABLED" });
    }
    const secret = newTotpSecret();
    const sealed = twoFactorKeys(runtime.config.secret).sealSecret(user.id, secret);
    const backupCodes = await runtime.stores.transaction(async (stores) => {
      await stores.users.lockUser(user.id);
      await stores.twoFactors.startTotpEnrolment(generateId(), user.id, sealed, now);
      return replaceBackupCodes(runtime, stores, user.id);
    });
    const { totpOptions } = runtime.config.twoFactor;
    return {
      method: "totp" as const,
      totpURI: totpURI(secret, body.issuer ?? runtime.config.twoFactor.issuer, user.email, totpOptions),
      backupCodes,
    };
  },
});

export const getTotpUri = defineEndpoint({
  method: "POST",
  path: "/two-factor/get-totp-uri",
  rateLimit: "credential",
  auth: "sensitive",
  carriesToken: true,
  body: z.object({ password }),
  response: z.object({ totpURI: z.string() }),
  summary: "The authenticator's otpauth:// URI again (to add it to another app)",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, body } = ctx;
    const { user } = ctx.session!;
    await requireStepUp(ctx, body.password);
    const row = await runtime.stores.twoFactors.findFactor(user.id);
    const secret = row?.secret ? twoFactorKeys(runtime.config.secret).openSecret(user.id, row.secret) : null;
    if (!secret) throw new APIError("BAD_REQUEST", TWO_FACTOR_MESSAGES.TOTP_NOT_ENABLED);
    // The configured issuer, as enable answers it (Better Auth's get-totp-uri ignores it: API-NOTES-PLUGINS.md 10.7).
    return { totpURI: totpURI(secret, runtime.config.twoFactor.issuer, user.email, runtime.config.twoFactor.totpOptions) };
  },
});

export const disableTwoFactor = defineEndpoint({
  method: "POST",
  path: "/two-factor/disable",
  changesSession: true,
  rateLimit: "credential",
  auth: "sensitive",
  body: z.object({ password }),
  response: z.object({ status: z.boolean() }),
  summary: "Remove every second factor (authenticator, email code, backup codes, trusted devices); the session is replaced",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, body } = ctx;
    const current = ctx.session!;
    await requireStepUp(ctx, body.password);
    await runtime.stores.transaction(async (stores) => {
      await stores.users.lockUser(current.user.id);
      await stores.twoFactors.removeAllFactors(current.user.id);
      await emitEvent(stores, ctx, "two_factor.disabled", { userId: current.user.id, data: {} });
    });
    expireTrustCookie(ctx, runtime.config);
    await rotateSession(ctx, current);
    runtime.logger.info({ userId: current.user.id }, "second factors removed");
    return { status: true };
  },
});

export const generateBackupCodes = defineEndpoint({
  method: "POST",
  path: "/two-factor/generate-backup-codes",
  rateLimit: "credential",
  auth: "sensitive",
  carriesToken: true,
  body: z.object({ password }),
  response: z.object({ status: z.boolean(), backupCodes: z.array(z.string()) }),
  summary: "Replace the backup codes with new ones (shown this once: they are stored hashed); trusted devices end",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, body } = ctx;
    const { user } = ctx.session!;
    await requireStepUp(ctx, body.password);
    if (!user.twoFactorEnabled) {
      throw new APIError("BAD_REQUEST", TWO_FACTOR_FIXED_CODES.TWO_FACTOR_NOT_ENABLED, { code: "TWO_FACTOR_NOT_ENABLED" });
    }
    const backupCodes = await runtime.stores.transaction(async (stores) => {
      await stores.users.lockUser(user.id);
      // A factor changed: every trusted device ends (README "Second factors").
      await stores.trustedDevices.deleteUserTrustedDevices(user.id);
      return replaceBackupCodes(runtime, stores, user.id);
    });
    expireTrustCookie(ctx, runtime.config);
    return { status: true, backupCodes };
  },
});
