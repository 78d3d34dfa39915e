import { signInEmail, signUpEmail } from "./credentials/email-password-routes.js";
import { error, ok } from "./http/system-routes.js";
import { getSession, listSessions, revokeOtherSessions, revokeSession, revokeSessions, signOut } from "./session/routes.js";
import { updateUser } from "./user/routes.js";

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
} as const;

export type Endpoints = typeof ENDPOINTS;
