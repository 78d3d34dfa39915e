import { z } from "zod";

/** Request fields shared by the organization routes. Anything outside them is a 400 VALIDATION_ERROR. */
export const idSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, "Invalid id");

export const slugSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9-]+$/, "Slug must be lower-case letters, digits and hyphens");

export const organizationNameSchema = z.string().trim().min(1, "Name is required").max(256, "Name is too long");

export const teamNameSchema = z.string().trim().min(1, "Name is required").max(256, "Name is too long");

export const logoSchema = z.string().max(4096, "Logo URL is too long").nullable();

const METADATA_MAX_CHARS = 16_384;

export const metadataSchema = z.record(z.string().max(256), z.unknown()).refine((value) => {
  try {
    return JSON.stringify(value).length <= METADATA_MAX_CHARS;
  } catch {
    return false;
  }
}, "Metadata is too large");

/** One role or several: "admin", "admin,member" or ["admin", "member"]. */
export const roleInputSchema = z.union([
  z.string().min(1).max(256),
  z.array(z.string().min(1).max(64)).min(1).max(10),
]);

/** One team id or several. */
export const teamIdsInputSchema = z.union([idSchema, z.array(idSchema).min(1).max(20)]);

/** A whole number in a query string ("10") or a server-side call (10). */
export const queryInt = (min: number, max: number) =>
  z
    .union([z.number(), z.string().regex(/^\d{1,9}$/, "Expected a whole number")])
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

export const emailInputSchema = z.string().max(1024);
