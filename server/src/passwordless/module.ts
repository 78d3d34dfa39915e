import { defineModule } from "../gatehouse-module.js";
import {
  changeEmailOtp,
  checkVerificationOtp,
  forgetPasswordEmailOtp,
  requestEmailChangeOtp,
  requestPasswordResetOtp,
  resetPasswordEmailOtp,
  sendVerificationOtp,
  signInEmailOtp,
  verifyEmailOtp,
} from "./email-otp-routes.js";
import { magicLinkVerify, signInMagicLink } from "./magic-link-routes.js";
import { EMAIL_OTP_MESSAGES, MAGIC_LINK_MESSAGES } from "./messages.js";
import * as passwordlessTables from "./migrations/0012-passwordless.js";
import { passwordlessRepositories } from "./store/index.js";
import { PASSWORDLESS_TABLE_SPECS } from "./tables.js";

/**
 * Passwordless sign-in: two modules in one folder, since they share what proving a mailbox does to an account
 * (mailbox-proof.ts), the secrets' hashing (secrets.ts) and the mail helpers. Each has its own option block and
 * turns on and off by itself (API-NOTES-PLUGINS.md sections 4 and 5; README.md "Magic links and email codes").
 * Their routes declare defineEndpoint (the whole Runtime): every one of them signs in through core's one way in
 * (session/sign-in.ts) or mails through core's helpers, which take the Runtime.
 */

/**
 * Magic links (`magicLink`): a link's row lives in core's verification table (`magic-link:<hash>`), so the module has
 * no table or migration of its own.
 */
export const magicLinkModule = defineModule({
  name: "magic-link",
  enabled: (config) => config.magicLink.enabled,
  endpoints: { signInMagicLink, magicLinkVerify },
  migrations: {},
  tables: {},
  repositories: () => ({}),
  errors: MAGIC_LINK_MESSAGES,
});

/** Email one-time codes (`emailOTP`): its codes live in its own table, emailOtp (migration 0012-passwordless). */
export const emailOtpModule = defineModule({
  name: "email-otp",
  enabled: (config) => config.emailOTP.enabled,
  endpoints: {
    sendVerificationOtp,
    checkVerificationOtp,
    verifyEmailOtp,
    signInEmailOtp,
    requestPasswordResetOtp,
    forgetPasswordEmailOtp,
    resetPasswordEmailOtp,
    requestEmailChangeOtp,
    changeEmailOtp,
  },
  migrations: { "0012-passwordless": passwordlessTables },
  tables: PASSWORDLESS_TABLE_SPECS,
  repositories: passwordlessRepositories,
  errors: EMAIL_OTP_MESSAGES,
  // A removed user's codes need no cleanup: they are keyed by address, live minutes, and prove nothing without it.
});
