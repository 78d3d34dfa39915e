import { z } from "zod";
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
    lang: user.lang,
    twoFactorEnabled: user.twoFactorEnabled,
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

const dateTime = z.iso.datetime();

/**
 * Answer shapes, for the client's types (client/src/contract.gen.ts) and the OpenAPI document. The ids name the shared
 * declarations there (`User`, `Session`, `SessionData`).
 */
export const publicUserSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  emailVerified: z.boolean(),
  image: z.string().nullable(),
  createdAt: dateTime,
  updatedAt: dateTime,
  username: z.string().nullable(),
  displayUsername: z.string().nullable(),
  role: z.string().nullable(),
  banned: z.boolean(),
  banReason: z.string().nullable(),
  banExpires: dateTime.nullable(),
  lang: z.string().nullable().describe('The language the user\'s mail is written in ("de"), or null when never chosen'),
  twoFactorEnabled: z.boolean().describe("The user has a second factor: their sign-ins meet the second step"),
}).meta({ id: "User", description: "The public user object every answer carries: never a password or an account's token" });

export const publicSessionSchema = z.object({
  id: z.string(),
  token: z.string(),
  userId: z.string(),
  expiresAt: dateTime,
  createdAt: dateTime,
  updatedAt: dateTime,
  ipAddress: z.string().nullable(),
  userAgent: z.string().nullable(),
  activeOrganizationId: z.string().nullable(),
  activeTeamId: z.string().nullable(),
  impersonatedBy: z.string().nullable(),
}).meta({ id: "Session" });

export const sessionDataSchema = z
  .object({ session: publicSessionSchema, user: publicUserSchema })
  .meta({ id: "SessionData", description: "A session and its user: what GET /get-session answers for a signed-in caller" });

export const statusSchema = z.object({ status: z.boolean() });
