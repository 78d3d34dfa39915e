import type { Language } from "../email/language.js";
import { ERROR_PAGE_TEXTS } from "./error-page-messages.gen.js";

/**
 * The codes the service's redirects carry in `?error=`: SPEC.md section 8's redirect error codes, the sign-in
 * failure reasons (spaces as underscores), the OAuth callback's own (state_mismatch, banned,
 * email_does_not_match) and the provider errors users meet most (access_denied). Their sentences live in the web
 * app's translations (web/src/i18n, `errorPage`), the one home of what the web app's /error page and this
 * service's own page say; error-page-messages.gen.ts is generated from them
 * (`npm run error-page-messages -w @gatehouse/web`).
 */
export type ErrorPageCode = keyof typeof ERROR_PAGE_TEXTS.en.codes;
export const ERROR_PAGE_CODES = Object.keys(ERROR_PAGE_TEXTS.en.codes) as [ErrorPageCode, ...ErrorPageCode[]];

export interface ErrorPageMessages {
  /** The page's title and heading: "Authentication Error" in English, as SPEC.md section 2 names the page. */
  title: string;
  /** Before the code: "Error code". */
  codeLabel: string;
  /** The link to the application root. */
  back: string;
  /** For a code not listed below. */
  unknown: string;
  codes: Record<ErrorPageCode, string>;
}

/** The error page in each of the eight languages. */
export const ERROR_PAGE_MESSAGES: Record<Language, ErrorPageMessages> = ERROR_PAGE_TEXTS;
