import { ADMIN_MESSAGES } from "../admin/messages.js";
import { USERNAME_MESSAGES } from "../credentials/username.js";
import { ORG_MESSAGES } from "../organization/messages.js";
import { OAUTH_MESSAGES } from "../social/errors.js";
import { codeOf, MESSAGES } from "./errors.js";

/**
 * Every domain's error catalogue, by domain. The wire code of an entry is `codeOf(message)` (SPEC.md section 8);
 * the client's `ErrorCode` union (client/src/contract.gen.ts) is generated from this list.
 */
export const ERROR_CATALOGUES = {
  core: MESSAGES,
  username: USERNAME_MESSAGES,
  social: OAUTH_MESSAGES,
  organization: ORG_MESSAGES,
  admin: ADMIN_MESSAGES,
} as const;

/** The wire codes of every catalogue, sorted, without repeats. */
export function allErrorCodes(): string[] {
  const codes = new Set<string>();
  for (const catalogue of Object.values(ERROR_CATALOGUES)) {
    for (const message of Object.values(catalogue)) if (typeof message === "string") codes.add(codeOf(message));
  }
  return [...codes].sort();
}
