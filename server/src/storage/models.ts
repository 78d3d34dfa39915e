/** The core models, independent of how either dialect stores them (a module's live in its folder). */
export interface User {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  image: string | null;
  createdAt: Date;
  updatedAt: Date;
  username: string | null;
  displayUsername: string | null;
  role: string | null;
  banned: boolean;
  banReason: string | null;
  banExpires: Date | null;
  lang: string | null;
  /** The user has a second factor: every sign-in meets the second step (two-factor/). */
  twoFactorEnabled: boolean;
}

export interface Session {
  id: string;
  token: string;
  userId: string;
  expiresAt: Date;
  ipAddress: string | null;
  userAgent: string | null;
  createdAt: Date;
  updatedAt: Date;
  activeOrganizationId: string | null;
  activeTeamId: string | null;
  impersonatedBy: string | null;
  /** How the user signed in (session/sign-in.ts): "email", "username", a provider id, ...; null on older sessions. */
  loginMethod: string | null;
  /**
   * The factors its sign-in proved (session/sign-in.ts): the first ("password", "email", "social", "passkey", ...)
   * and any second ("totp", "otp", "backup-code"); null on sessions made before they were recorded (and absent on
   * a session read from the cookie cache, which does not carry them).
   */
  factors?: string[] | null;
}

export interface Account {
  id: string;
  accountId: string;
  providerId: string;
  userId: string;
  accessToken: string | null;
  refreshToken: string | null;
  idToken: string | null;
  accessTokenExpiresAt: Date | null;
  refreshTokenExpiresAt: Date | null;
  scope: string | null;
  password: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface Verification {
  id: string;
  identifier: string;
  value: string;
  expiresAt: Date;
  createdAt: Date;
  updatedAt: Date;
}
