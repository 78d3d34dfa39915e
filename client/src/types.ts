/**
 * The shapes the server sends and accepts (API-NOTES.md section 2). Timestamps stay the ISO-8601 strings
 * that arrive on the wire: the client never turns them into Date objects, so what a call returns is
 * exactly what the server said and can be stored or sent on as JSON unchanged. Use `new Date(value)`
 * where a Date is needed.
 */
export type ISODateString = string;

/** The public user object every answer carries. */
export interface User {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  image: string | null;
  createdAt: ISODateString;
  updatedAt: ISODateString;
  username: string | null;
  displayUsername: string | null;
  role: string | null;
  banned: boolean | null;
  banReason: string | null;
  banExpires: ISODateString | null;
}

export interface Session {
  id: string;
  token: string;
  userId: string;
  expiresAt: ISODateString;
  createdAt: ISODateString;
  updatedAt: ISODateString;
  ipAddress: string | null;
  userAgent: string | null;
  activeOrganizationId: string | null;
  activeTeamId: string | null;
  impersonatedBy: string | null;
}

/** What GET /get-session answers for a signed-in caller (it answers null otherwise). */
export interface SessionData {
  session: Session;
  user: User;
}

export interface SignUpEmailBody {
  name: string;
  email: string;
  password: string;
  image?: string | null;
  callbackURL?: string;
  rememberMe?: boolean;
}

export interface SignUpEmailData {
  /** Null when the server does not sign the new user in (auto sign-in off, or verification required). */
  token: string | null;
  user: User;
}

export interface SignInEmailBody {
  email: string;
  password: string;
  /** Where the browser goes after signing in; the answer then carries `url` and `redirect: true`. */
  callbackURL?: string;
  /** Defaults to true on the server. */
  rememberMe?: boolean;
}

export interface SignInEmailData {
  redirect: boolean;
  token: string;
  url?: string;
  user: User;
}

export interface GetSessionQuery {
  /** Read the session from the database, not from the signed cookie cache. */
  disableCookieCache?: boolean;
  /** Do not extend the session's expiry on this read. */
  disableRefresh?: boolean;
}

export interface SignOutData {
  success: boolean;
}

export interface RevokeSessionBody {
  token: string;
}

export interface StatusData {
  status: boolean;
}

export interface UpdateUserBody {
  name?: string;
  image?: string | null;
}

export interface OkData {
  ok: boolean;
}
