import { signInEmail, signUpEmail } from "./credentials/email-password-routes.js";
import { isUsernameAvailable, signInUsername } from "./credentials/username-routes.js";
import { adminModule } from "./admin/module.js";
import { eventsModule } from "./events/module.js";
import { error, features, ok } from "./http/system-routes.js";
import { oidcProviderModule } from "./oidc-provider/module.js";
import { webhooksModule } from "./webhooks/module.js";
import { linkSocialAccount, listUserAccounts, unlinkAccount } from "./social/account-routes.js";
import { callbackOAuth, callbackOAuthPost } from "./social/callback-routes.js";
import { signInSocial } from "./social/sign-in-routes.js";
import { accountInfo, getAccessToken, refreshToken } from "./social/token-routes.js";
import { organizationModule } from "./organization/module.js";
import { emailOtpModule, magicLinkModule } from "./passwordless/module.js";
import { passkeyModule } from "./passkey/module.js";
import { getSession, listSessions, revokeOtherSessions, revokeSession, revokeSessions, signOut } from "./session/routes.js";
import { twoFactorModule } from "./two-factor/module.js";
import { updateUser } from "./user/routes.js";
import { changeEmail } from "./verification/change-email-routes.js";
import { deleteUser, deleteUserCallback } from "./verification/delete-user-routes.js";
import { devOutbox } from "./email/outbox-route.js";
import { sendVerificationEmail, verifyEmail } from "./verification/email-verification-routes.js";
import {
  changePassword,
  forgetPassword,
  requestPasswordReset,
  resetPassword,
  resetPasswordCallback,
  setPassword,
} from "./verification/password-routes.js";

/**
 * Every route of the service, by the name the server-side API calls it: core's, and each module's (modules.ts) where
 * its routes always stood. createGatehouse serves a module's routes only when the configuration turns it on.
 */
export const ENDPOINTS = {
  ok,
  error,
  features,
  signUpEmail,
  signInEmail,
  signOut,
  getSession,
  listSessions,
  revokeSession,
  revokeSessions,
  revokeOtherSessions,
  updateUser,
  sendVerificationEmail,
  verifyEmail,
  forgetPassword,
  requestPasswordReset,
  resetPasswordCallback,
  resetPassword,
  changePassword,
  setPassword,
  changeEmail,
  deleteUser,
  deleteUserCallback,
  ...organizationModule.endpoints,
  devOutbox,
  signInUsername,
  isUsernameAvailable,
  ...adminModule.endpoints,
  signInSocial,
  callbackOAuth,
  callbackOAuthPost,
  listUserAccounts,
  linkSocialAccount,
  unlinkAccount,
  refreshToken,
  getAccessToken,
  accountInfo,
  ...magicLinkModule.endpoints,
  ...emailOtpModule.endpoints,
  ...twoFactorModule.endpoints,
  ...passkeyModule.endpoints,
  ...oidcProviderModule.endpoints,
  ...eventsModule.endpoints,
  ...webhooksModule.endpoints,
} as const;

export type Endpoints = typeof ENDPOINTS;
