import { z } from "zod";
import { newAccountRow, newCredentialAccount } from "../credentials/credential-account.js";
import { importedPasswordHash, type FirebaseHashConfig, type HashFormat } from "../credentials/hash-formats.js";
import { normalizeUsername } from "../credentials/username.js";
import { generateId } from "../crypto/random.js";
import type { Runtime } from "../runtime.js";
import type { Account } from "../storage/models.js";
import { providerAccountKey, type ImportedUser } from "../storage/imported-users.js";
import { isValidEmail, normalizeEmail } from "../user/email-address.js";

/**
 * One line of an import file: a JSON object with these fields and no others (a misspelt field is a rejected line,
 * not a silently lost value). README.md, "From anything else (import)", documents them.
 */
const dateInput = z.union([z.number(), z.string().max(64)]);

const providerAccount = z.strictObject({
  providerId: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .refine((id) => id !== "credential", "the password is given by password, not as a credential account"),
  accountId: z.string().trim().min(1).max(255),
});

export const importLineSchema = z.strictObject({
  email: z.string().max(1024),
  name: z.string().trim().max(256, "Name is too long").nullish(),
  emailVerified: z.boolean().optional(),
  image: z.string().max(4096, "Image URL is too long").nullish(),
  createdAt: dateInput.optional(),
  updatedAt: dateInput.optional(),
  username: z.string().max(1024).nullish(),
  displayUsername: z.string().trim().min(1).max(256).nullish(),
  /** A hash in one of the formats of credentials/hash-formats.ts; absent or null: no password. */
  password: z.string().min(1).max(2048).nullish(),
  /** With password: a Firebase scrypt hash and its salt (base64). */
  passwordSalt: z.string().min(1).max(1024).optional(),
  accounts: z.array(providerAccount).max(100).optional(),
});

export type ImportLine = z.infer<typeof importLineSchema>;

/** Lines longer than this are refused before parsing (a user is far shorter). */
export const MAX_LINE_LENGTH = 65_536;

export type ParsedLine =
  | { ok: true; record: ImportedUser; email: string; username: string | null; providerKeys: string[]; format: HashFormat | null }
  | { ok: false; reason: string };

/** Parses and checks one non-blank line; answers the user and accounts to write, or why the line is refused. */
export function parseImportLine(
  text: string,
  ctx: { runtime: Runtime; firebase: FirebaseHashConfig | undefined; now: Date },
): ParsedLine {
  if (text.length > MAX_LINE_LENGTH) return { ok: false, reason: `line longer than ${MAX_LINE_LENGTH} characters` };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: `not valid JSON: ${(error as Error).message}` };
  }
  if (!json || typeof json !== "object" || Array.isArray(json)) return { ok: false, reason: "not a JSON object" };
  const parsed = importLineSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.join(".");
    return { ok: false, reason: path ? `${path}: ${issue.message}` : issue.message };
  }
  const line = parsed.data;

  // As sign-up stores it: trimmed and in lower case.
  const email = normalizeEmail(line.email);
  if (!isValidEmail(email)) return { ok: false, reason: "email: not a valid email address" };

  // A missing name is derived from the address (the name is required of every user).
  const name = line.name || email.slice(0, email.indexOf("@"));

  let username: string | null = null;
  if (line.username != null) {
    // The service's own rules (length, characters), stored in lower case.
    try {
      username = normalizeUsername(ctx.runtime, line.username);
    } catch (error) {
      return { ok: false, reason: `username: ${(error as Error).message}` };
    }
  }
  if (line.displayUsername != null && username === null) {
    return { ok: false, reason: "displayUsername: given without a username" };
  }

  const createdAt = line.createdAt === undefined ? ctx.now : toDate(line.createdAt);
  if (!createdAt) return { ok: false, reason: "createdAt: not a date (ISO 8601 or milliseconds since 1970)" };
  const updatedAt = line.updatedAt === undefined ? createdAt : toDate(line.updatedAt);
  if (!updatedAt) return { ok: false, reason: "updatedAt: not a date (ISO 8601 or milliseconds since 1970)" };

  if (line.passwordSalt !== undefined && line.password == null) {
    return { ok: false, reason: "passwordSalt: given without a password" };
  }
  let hash: { hash: string; format: HashFormat } | null = null;
  if (line.password != null) {
    const imported = importedPasswordHash(line.password, line.passwordSalt, ctx.firebase);
    if ("error" in imported) return { ok: false, reason: imported.error };
    hash = imported;
  }

  const userId = generateId();
  const accounts: Account[] = [];
  if (hash) accounts.push(newCredentialAccount(userId, hash.hash, createdAt));
  const providerKeys: string[] = [];
  for (const [index, entry] of (line.accounts ?? []).entries()) {
    const key = providerAccountKey(entry.providerId, entry.accountId);
    if (providerKeys.includes(key)) return { ok: false, reason: `accounts.${index}: listed twice` };
    providerKeys.push(key);
    accounts.push(newAccountRow(userId, entry.providerId, entry.accountId, createdAt));
  }

  return {
    ok: true,
    email,
    username,
    providerKeys,
    format: hash?.format ?? null,
    record: {
      user: {
        id: userId,
        name,
        email,
        emailVerified: line.emailVerified ?? false,
        image: line.image ?? null,
        createdAt,
        updatedAt,
        username,
        displayUsername: username === null ? null : (line.displayUsername ?? line.username ?? null),
        role: ctx.runtime.config.admin.defaultRole,
      },
      accounts,
    },
  };
}

/** ISO 8601 text, or milliseconds since 1970 as a number or a string of digits (as Firebase exports them). */
function toDate(value: number | string): Date | null {
  const ms = typeof value === "number" ? value : /^\d{1,15}$/.test(value) ? Number(value) : Date.parse(value);
  if (!Number.isFinite(ms)) return null;
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? null : date;
}
