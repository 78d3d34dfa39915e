import { z } from "zod";

const EMAIL = z.email();

/** Addresses are stored and compared in lower case (SPEC.md section 3). */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

export function isValidEmail(email: string): boolean {
  return email.length <= 254 && EMAIL.safeParse(email).success;
}
