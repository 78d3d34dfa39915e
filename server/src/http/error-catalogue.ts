import { ADMIN_FIXED_CODES, ADMIN_MESSAGES } from "../admin/messages.js";
import { CREDENTIAL_FIXED_CODES, CREDENTIAL_MESSAGES } from "../credentials/messages.js";
import { EVENTS_MESSAGES } from "../events/messages.js";
import { OIDC_MESSAGES } from "../oidc-provider/messages.js";
import { ORG_FIXED_CODES, ORG_MESSAGES } from "../organization/messages.js";
import { EMAIL_OTP_MESSAGES, MAGIC_LINK_MESSAGES } from "../passwordless/messages.js";
import { PASSKEY_MESSAGES } from "../passkey/messages.js";
import { SESSION_MESSAGES } from "../session/messages.js";
import { TWO_FACTOR_FIXED_CODES, TWO_FACTOR_MESSAGES } from "../two-factor/messages.js";
import { OAUTH_FIXED_CODES, OAUTH_MESSAGES } from "../social/messages.js";
import { USER_FIXED_CODES, USER_MESSAGES } from "../user/messages.js";
import { VERIFICATION_MESSAGES } from "../verification/messages.js";
import { WEBHOOK_MESSAGES } from "../webhooks/messages.js";
import { HTTP_FIXED_CODES, HTTP_MESSAGES } from "./messages.js";

/**
 * Every domain's error catalogue, by domain: `{ CODE: message }`, each key the code SPEC.md section 8's rule
 * derives from its message (http/errors.ts codeOf; server/test/error-catalogue.test.ts checks every entry).
 * The client's `ErrorCode` union (client/src/contract.gen.ts) and the web app's translated error texts
 * (web/src/i18n, `serverErrors`) are keyed by these codes.
 */
export const ERROR_CATALOGUES = {
  http: HTTP_MESSAGES,
  credentials: CREDENTIAL_MESSAGES,
  session: SESSION_MESSAGES,
  user: USER_MESSAGES,
  verification: VERIFICATION_MESSAGES,
  social: OAUTH_MESSAGES,
  organization: ORG_MESSAGES,
  admin: ADMIN_MESSAGES,
  passkey: PASSKEY_MESSAGES,
  magicLink: MAGIC_LINK_MESSAGES,
  emailOtp: EMAIL_OTP_MESSAGES,
  twoFactor: TWO_FACTOR_MESSAGES,
  oidcProvider: OIDC_MESSAGES,
  events: EVENTS_MESSAGES,
  webhooks: WEBHOOK_MESSAGES,
} as const;

/**
 * The exceptions to the rule, by domain, each a `{ CODE: message }` section beside its catalogue: messages sent
 * under a code they do not give alone, because the message
 * - is configured (BANNED_USER: the operator's `admin.bannedUserMessage`, this text by default),
 * - carries a value, written `{name}` and filled by fillMessage (FIELD_NOT_ALLOWED, VALIDATION_ERROR, a provider's
 *   id, a Content-Type),
 * - is a sentence the code never was (SERVICE_UNAVAILABLE, named by its status),
 * - is a second spelling SPEC.md section 8 or API-NOTES.md fixes for a code of a catalogue ("Invitation not
 *   found!", "email not verified", "user not found", "Provider {id} not found"), or
 * - is sent by a Better Auth plugin under a code its message does not give (API-NOTES-PLUGINS.md: twoFactor's
 *   TWO_FACTOR_NOT_ENABLED for "Two factor isn't enabled", ...).
 * Clients rely on these codes (API-NOTES.md 1.2), so they are fixed here; server/test/error-catalogue.test.ts
 * lists every one of them, so a new exception is a decision, never an accident.
 */
export const FIXED_CODES = {
  http: HTTP_FIXED_CODES,
  credentials: CREDENTIAL_FIXED_CODES,
  user: USER_FIXED_CODES,
  social: OAUTH_FIXED_CODES,
  organization: ORG_FIXED_CODES,
  admin: ADMIN_FIXED_CODES,
  twoFactor: TWO_FACTOR_FIXED_CODES,
} as const;

/** The keys of every section of a by-domain record. */
type KeysOfSections<T> = { [Domain in keyof T]: keyof T[Domain] }[keyof T];

/** Every code the service sends in an error body (`{ code, message }`). */
export type ErrorCode = KeysOfSections<typeof ERROR_CATALOGUES> | KeysOfSections<typeof FIXED_CODES>;

/** The wire codes of every catalogue and every fixed code, sorted, without repeats. */
export function allErrorCodes(): string[] {
  const codes = new Set<string>();
  for (const section of [...Object.values(ERROR_CATALOGUES), ...Object.values(FIXED_CODES)]) {
    for (const code of Object.keys(section)) codes.add(code);
  }
  return [...codes].sort();
}
