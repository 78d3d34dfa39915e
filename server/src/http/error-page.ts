import type { Language } from "../email/language.js";
import { ERROR_PAGE_MESSAGES, type ErrorPageCode } from "./error-page-messages.js";
import { escapeHtml } from "./html.js";

/** The sentence for a code; a code we do not know (or one like "__proto__") gets the generic one. */
export function explainErrorCode(code: string, language: Language): string {
  const messages = ERROR_PAGE_MESSAGES[language];
  return Object.hasOwn(messages.codes, code) ? messages.codes[code as ErrorPageCode] : messages.unknown;
}

/**
 * The plain page redirect errors land on: titled "Authentication Error" (in the visitor's language), what the
 * code means, the code itself (escaped: it comes from the address bar) and a link to the application root.
 * A redirect's error_description is not shown: anyone can write a link with words of their choosing there, and
 * this page, on the service's own origin, should not say them in the service's voice.
 */
export function renderErrorPage(code: string, language: Language): string {
  const messages = ERROR_PAGE_MESSAGES[language];
  return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(messages.title)}</title>
<style>
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;background:#f6f7f9;color:#1f2933;margin:0;display:grid;place-items:center;min-height:100vh}
main{background:#fff;border:1px solid #e4e7eb;border-radius:12px;padding:2rem 2.5rem;max-width:28rem;margin:1rem;box-shadow:0 1px 3px rgba(0,0,0,.06)}
h1{font-size:1.25rem;margin:0 0 .75rem}code{background:#f0f2f5;padding:.15rem .4rem;border-radius:4px;word-break:break-all}
p{line-height:1.5}a{color:#2457c5}
@media (max-width:30rem){main{padding:1.5rem}}
</style>
</head>
<body>
<main>
<h1>${escapeHtml(messages.title)}</h1>
<p>${escapeHtml(explainErrorCode(code, language))}</p>
<p>${escapeHtml(messages.codeLabel)}: <code>${escapeHtml(code)}</code></p>
<p><a href="/">${escapeHtml(messages.back)}</a></p>
</main>
</body>
</html>`;
}
