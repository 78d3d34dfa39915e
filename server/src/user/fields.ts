import { z } from "zod";
import { APIError } from "../http/errors.js";

/** Fields a client may never set on a user, whatever the route (roles, bans and verification are earned). */
const PROTECTED_USER_FIELDS = [
  "id",
  "emailVerified",
  "createdAt",
  "updatedAt",
  "role",
  "banned",
  "banReason",
  "banExpires",
] as const;

export function rejectProtectedFields(body: Record<string, unknown>): void {
  for (const field of PROTECTED_USER_FIELDS) {
    if (body[field] !== undefined) {
      throw new APIError("BAD_REQUEST", `${field} is not allowed to be set`, { code: "FIELD_NOT_ALLOWED" });
    }
  }
}

export const nameSchema = z.string().trim().min(1, "Name is required").max(256, "Name is too long");
export const imageSchema = z.string().max(4096, "Image URL is too long").nullable();
