import { z } from "zod";
import { APIError, fillMessage } from "../http/errors.js";
import { USER_FIXED_CODES } from "./messages.js";

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
      throw new APIError("BAD_REQUEST", fillMessage(USER_FIXED_CODES.FIELD_NOT_ALLOWED, { field }), { code: "FIELD_NOT_ALLOWED" });
    }
  }
}

export const nameSchema = z.string().trim().min(1, "Name is required").max(256, "Name is too long");
/**
 * Profile pictures are shown by the web app in an <img>, under its Content-Security-Policy
 * `img-src 'self' data: https:` (web-app.ts): an http:// address would be blocked there (a broken image and a
 * console error), so it is refused here, as the page would use it. Accepted: an absolute https:// URL with a host
 * and no credentials, or a base64 `data:` URL of a raster image type (PNG, JPEG, GIF, WebP, AVIF; within the
 * 4096-character limit, so a small one). SVG is left out: an SVG opened from a link runs its scripts.
 * Null (or empty) clears the picture.
 */
export const IMAGE_DATA_URL = /^data:image\/(png|jpeg|gif|webp|avif);base64,[A-Za-z0-9+/]+={0,2}$/;

export function isUsableImage(value: string): boolean {
  if (IMAGE_DATA_URL.test(value)) return true;
  if (!/^https:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return url.protocol === "https:" && url.hostname !== "" && url.username === "" && url.password === "";
  } catch {
    return false;
  }
}

export const imageSchema = z
  .string()
  .max(4096, "Image URL is too long")
  .refine((value) => value === "" || isUsableImage(value), "Use an https:// address or a data:image URL")
  .nullable();
