import type { Kysely } from "kysely";
import type { PasswordlessDatabase } from "../tables.js";
import { emailOtpStore } from "./email-otps.js";

/** The email-code module's repositories over one connection (or one transaction). */
export function passwordlessRepositories(db: Kysely<PasswordlessDatabase>) {
  return { emailOtps: emailOtpStore(db) };
}

export type PasswordlessRepositories = ReturnType<typeof passwordlessRepositories>;
