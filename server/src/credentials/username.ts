import { z } from "zod";
import { APIError } from "../http/errors.js";
import type { Config } from "../config/index.js";
import type { CoreStores } from "../storage/index.js";
import { CREDENTIAL_MESSAGES } from "./messages.js";

/** Letters, digits, underscore and dot (SPEC.md section 5). */
const USERNAME_PATTERN = /^[A-Za-z0-9_.]+$/;

/** Body fields: generous bounds, so that the rules below (not the schema) answer for a too-long username. */
export const usernameSchema = z.string().max(1024);
export const displayUsernameSchema = z.string().trim().min(1).max(256);

/**
 * Checks a username as it was typed and returns the lower-case form it is stored and compared in.
 * Throws 422 with the catalogue's message when it is too short, too long or has other characters.
 */
export function normalizeUsername(runtime: { config: Config }, raw: string): string {
  const { minUsernameLength, maxUsernameLength } = runtime.config.username;
  if (raw.length < minUsernameLength) throw new APIError("UNPROCESSABLE_ENTITY", CREDENTIAL_MESSAGES.USERNAME_IS_TOO_SHORT);
  if (raw.length > maxUsernameLength) throw new APIError("UNPROCESSABLE_ENTITY", CREDENTIAL_MESSAGES.USERNAME_IS_TOO_LONG);
  if (!USERNAME_PATTERN.test(raw)) throw new APIError("UNPROCESSABLE_ENTITY", CREDENTIAL_MESSAGES.USERNAME_IS_INVALID);
  return raw.toLowerCase();
}

export const usernameTakenError = () =>
  new APIError("UNPROCESSABLE_ENTITY", CREDENTIAL_MESSAGES.USERNAME_IS_ALREADY_TAKEN_PLEASE_TRY_ANOTHER);

/** Throws 422 when another user holds the (normalised) username. */
export async function assertUsernameFree(runtime: { stores: CoreStores }, username: string, ownerId?: string): Promise<void> {
  const holder = await runtime.stores.users.findUserByUsername(username);
  if (holder && holder.id !== ownerId) throw usernameTakenError();
}

/**
 * The username fields of a sign-up, update or admin call, checked: username in lower case, displayUsername as
 * given (it defaults to the username as typed when only the username is set). Undefined fields stay undefined.
 */
export async function usernameChanges(
  runtime: { config: Config; stores: CoreStores },
  input: { username?: string | undefined; displayUsername?: string | undefined },
  ownerId?: string,
): Promise<{ username?: string; displayUsername?: string }> {
  if (input.username === undefined) {
    return input.displayUsername === undefined ? {} : { displayUsername: input.displayUsername };
  }
  const username = normalizeUsername(runtime, input.username);
  await assertUsernameFree(runtime, username, ownerId);
  return { username, displayUsername: input.displayUsername ?? input.username };
}
