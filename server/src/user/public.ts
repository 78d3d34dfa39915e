import type { Session, User } from "../storage/models.js";

/** The user object every answer carries (API-NOTES.md section 2): never a password or token of an account. */
export function publicUser(user: User) {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    emailVerified: user.emailVerified,
    image: user.image,
    createdAt: user.createdAt,
    updatedAt: user.updatedAt,
    username: user.username,
    displayUsername: user.displayUsername,
    role: user.role,
    banned: user.banned,
    banReason: user.banReason,
    banExpires: user.banExpires,
  };
}

export type PublicUser = ReturnType<typeof publicUser>;

export function publicSession(session: Session) {
  return {
    id: session.id,
    token: session.token,
    userId: session.userId,
    expiresAt: session.expiresAt,
    createdAt: session.createdAt,
    updatedAt: session.updatedAt,
    ipAddress: session.ipAddress,
    userAgent: session.userAgent,
    activeOrganizationId: session.activeOrganizationId,
    activeTeamId: session.activeTeamId,
    impersonatedBy: session.impersonatedBy,
  };
}

export type PublicSession = ReturnType<typeof publicSession>;
