import { signInEmail, signUpEmail } from "./credentials/email-password-routes.js";
import { error, ok } from "./http/system-routes.js";
import { getSession, listSessions, revokeOtherSessions, revokeSession, revokeSessions, signOut } from "./session/routes.js";
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

/** Every route of the service, by the name the server-side API calls it. */
export const ENDPOINTS = {
  ok,
  error,
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
  devOutbox,
} as const;

export type Endpoints = typeof ENDPOINTS;
