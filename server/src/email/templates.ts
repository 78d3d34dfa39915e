import type { Language } from "./language.js";
import { CATALOGS, type MailCatalog } from "./locales/index.js";
import type { CodeMailKind } from "./locales/types.js";
import { escapeHtml } from "../http/html.js";
import { formatDuration } from "./duration.js";

/** The messages Gatehouse mails, each rendered as plain text and HTML in the recipient's language. */
export type MailKind = "verification" | "resetPassword" | "changeEmail" | "deleteAccount" | "invitation" | "magicLink";

export interface MailVariables {
  name: string;
  email: string;
  url: string;
  /** Life of the link, in seconds. */
  expiresIn: number;
  newEmail?: string;
  appName?: string;
  /** Invitations: the organization and who sent it. */
  organizationName?: string;
  inviterName?: string;
  inviterEmail?: string;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);

export function renderMail(kind: MailKind, language: Language, vars: MailVariables): RenderedMail {
  const catalog: MailCatalog = CATALOGS[language];
  const message = catalog[kind];
  const values = {
    name: vars.name,
    email: vars.email,
    newEmail: vars.newEmail ?? "",
    appName: vars.appName ?? "Gatehouse",
    organizationName: vars.organizationName ?? "",
    inviterName: vars.inviterName ?? "",
    inviterEmail: vars.inviterEmail ?? "",
    duration: formatDuration(vars.expiresIn, language),
  };
  const paragraphs = [fill(message.intro, values)];
  if ("warning" in message) paragraphs.push(fill(message.warning, values));
  const subject = fill(message.subject, values);
  const greeting = fill(catalog.greeting, values);
  const expires = fill(catalog.expires, values);
  const signature = fill(catalog.signature, values);
  const ignore = fill("ignore" in message ? message.ignore : catalog.ignore, values);

  const text = [
    greeting,
    "",
    ...paragraphs.flatMap((p) => [p, ""]),
    `${fill(message.action, values)}: ${vars.url}`,
    "",
    expires,
    ignore,
    "",
    signature,
  ].join("\n");

  const html = htmlMail(
    language,
    subject,
    `<p style="margin:0 0 16px;font-size:16px">${escapeHtml(greeting)}</p>
${paragraphs.map((p) => `<p style="margin:0 0 16px;font-size:16px;line-height:1.5">${escapeHtml(p)}</p>`).join("\n")}
<p style="margin:24px 0"><a href="${escapeHtml(vars.url)}" style="display:inline-block;background:#2457c5;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600">${escapeHtml(fill(message.action, values))}</a></p>
<p style="margin:0 0 8px;font-size:14px;color:#52606d">${escapeHtml(expires)}</p>
<p style="margin:0 0 8px;font-size:13px;color:#52606d">${escapeHtml(fill(catalog.linkHint, values))}<br><a href="${escapeHtml(vars.url)}" style="color:#2457c5;word-break:break-all">${escapeHtml(vars.url)}</a></p>
<p style="margin:16px 0 0;font-size:13px;color:#52606d">${escapeHtml(ignore)}</p>
<p style="margin:24px 0 0;font-size:14px">${escapeHtml(signature)}</p>`,
  );
  return { subject, text, html };
}

export interface CodeMailVariables {
  name: string;
  /** The address the code proves (the new one for an email change). */
  email: string;
  /** The one-time code: shown on a line of its own, never in the subject (lock screens show subjects). */
  code: string;
  /** Life of the code, in seconds. */
  expiresIn: number;
  appName?: string;
}

/** A mail that carries a one-time code instead of a link (passwordless/email-otp), in the recipient's language. */
export function renderCodeMail(kind: CodeMailKind, language: Language, vars: CodeMailVariables): RenderedMail {
  const catalog: MailCatalog = CATALOGS[language];
  const message = catalog.codes[kind];
  const values = {
    name: vars.name,
    email: vars.email,
    appName: vars.appName ?? "Gatehouse",
    duration: formatDuration(vars.expiresIn, language),
  };
  const subject = fill(message.subject, values);
  const greeting = fill(catalog.greeting, values);
  const intro = fill(message.intro, values);
  const expires = fill(catalog.codeExpires, values);
  const never = fill(catalog.codeNeverShare, values);
  const ignore = fill(catalog.ignore, values);
  const signature = fill(catalog.signature, values);

  const text = [greeting, "", intro, "", `    ${vars.code}`, "", expires, never, ignore, "", signature].join("\n");
  const html = htmlMail(
    language,
    subject,
    `<p style="margin:0 0 16px;font-size:16px">${escapeHtml(greeting)}</p>
<p style="margin:0 0 16px;font-size:16px;line-height:1.5">${escapeHtml(intro)}</p>
<p style="margin:24px 0;font-size:32px;font-weight:700;letter-spacing:6px;font-family:ui-monospace,Menlo,Consolas,monospace">${escapeHtml(vars.code)}</p>
<p style="margin:0 0 8px;font-size:14px;color:#52606d">${escapeHtml(expires)}</p>
<p style="margin:0 0 8px;font-size:14px;color:#52606d">${escapeHtml(never)}</p>
<p style="margin:16px 0 0;font-size:13px;color:#52606d">${escapeHtml(ignore)}</p>
<p style="margin:24px 0 0;font-size:14px">${escapeHtml(signature)}</p>`,
  );
  return { subject, text, html };
}

/** The HTML document every mail is drawn in: a centred white card on a grey page; `body` is its content. */
function htmlMail(language: Language, subject: string, body: string): string {
  return `<!doctype html>
<html lang="${language}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:0;background:#f4f5f7;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#1f2933">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f5f7;padding:24px 12px">
<tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:520px;background:#ffffff;border:1px solid #e4e7eb;border-radius:12px;padding:32px">
<tr><td>
${body}
</td></tr></table>
</td></tr></table>
</body></html>`;
}

/** Messages that tell the user something happened to their account; they carry no token and nothing expires. */
export type NoticeKind = "passwordChanged" | "emailChanged";

export interface NoticeVariables {
  name: string;
  /** The address the account had: the recipient. */
  email: string;
  /** emailChanged: the address the account has now. */
  newEmail?: string;
  /** passwordChanged: the app's "forgot password" page (no token in it). */
  url?: string;
  appName?: string;
}

export function renderNotice(kind: NoticeKind, language: Language, vars: NoticeVariables): RenderedMail {
  const catalog: MailCatalog = CATALOGS[language];
  const message = catalog[kind];
  const values = { name: vars.name, email: vars.email, newEmail: vars.newEmail ?? "", appName: vars.appName ?? "Gatehouse" };
  const subject = fill(message.subject, values);
  const greeting = fill(catalog.greeting, values);
  const paragraphs = [fill(message.intro, values), fill(message.advice, values)];
  const signature = fill(catalog.signature, values);
  const action = "action" in message && vars.url ? { label: fill(message.action, values), url: vars.url } : null;

  const text = [
    greeting,
    "",
    ...paragraphs.flatMap((p) => [p, ""]),
    ...(action ? [`${action.label}: ${action.url}`, ""] : []),
    signature,
  ].join("\n");

  const html = htmlMail(
    language,
    subject,
    `<p style="margin:0 0 16px;font-size:16px">${escapeHtml(greeting)}</p>
${paragraphs.map((p) => `<p style="margin:0 0 16px;font-size:16px;line-height:1.5">${escapeHtml(p)}</p>`).join("\n")}
${action ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="display:inline-block;background:#2457c5;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600">${escapeHtml(action.label)}</a></p>\n<p style="margin:0 0 8px;font-size:13px;color:#52606d">${escapeHtml(fill(catalog.linkHint, values))}<br><a href="${escapeHtml(action.url)}" style="color:#2457c5;word-break:break-all">${escapeHtml(action.url)}</a></p>` : ""}
<p style="margin:24px 0 0;font-size:14px">${escapeHtml(signature)}</p>`,
  );
  return { subject, text, html };
}

export interface NewDeviceVariables {
  name: string;
  email: string;
  /** When the sign-in happened: written in the language's long date and short time, in UTC. */
  at: Date;
  /** "Chrome 126"; null when the user agent does not say (written as the language's "unknown"). */
  browser: string | null;
  system: string | null;
  /** The client's address ("" when unknown). */
  ip: string;
  /** The account page's sessions, where the session is signed out and the password changed. */
  sessionsURL: string;
  /** The Security page: second factors and passkeys. */
  securityURL: string;
  appName?: string;
}

/** The sign-in's date and time in the language's long form, in UTC (the service does not know the user's zone). */
export function formatSignInTime(at: Date, language: Language): string {
  return `${new Intl.DateTimeFormat(language, { dateStyle: "long", timeStyle: "short", timeZone: "UTC" }).format(at)} UTC`;
}

/** "New sign-in to your account" (new-device/): when, which browser and system, the IP, and what to do if it was not them. */
export function renderNewDeviceMail(language: Language, vars: NewDeviceVariables): RenderedMail {
  const catalog: MailCatalog = CATALOGS[language];
  const message = catalog.newDevice;
  const values = { name: vars.name, email: vars.email, appName: vars.appName ?? "Gatehouse" };
  const subject = fill(message.subject, values);
  const greeting = fill(catalog.greeting, values);
  const intro = fill(message.intro, values);
  const advice = fill(message.advice, values);
  const security = fill(message.security, values);
  const signature = fill(catalog.signature, values);
  const details: [string, string][] = [
    [message.when, formatSignInTime(vars.at, language)],
    [message.browser, vars.browser ?? message.unknown],
    [message.system, vars.system ?? message.unknown],
    [message.ip, vars.ip || message.unknown],
  ];

  const text = [
    greeting,
    "",
    intro,
    "",
    ...details.map(([label, value]) => `${label}: ${value}`),
    "",
    advice,
    `${message.action}: ${vars.sessionsURL}`,
    "",
    `${security}: ${vars.securityURL}`,
    "",
    signature,
  ].join("\n");

  const html = htmlMail(
    language,
    subject,
    `<p style="margin:0 0 16px;font-size:16px">${escapeHtml(greeting)}</p>
<p style="margin:0 0 16px;font-size:16px;line-height:1.5">${escapeHtml(intro)}</p>
<table role="presentation" cellpadding="0" cellspacing="0" style="margin:0 0 16px;font-size:15px;line-height:1.5">
${details.map(([label, value]) => `<tr><td style="padding:2px 16px 2px 0;color:#52606d;vertical-align:top;white-space:nowrap">${escapeHtml(label)}</td><td style="padding:2px 0;font-weight:600;vertical-align:top;word-break:break-word">${escapeHtml(value)}</td></tr>`).join("\n")}
</table>
<p style="margin:0 0 16px;font-size:16px;line-height:1.5">${escapeHtml(advice)}</p>
<p style="margin:24px 0"><a href="${escapeHtml(vars.sessionsURL)}" style="display:inline-block;background:#2457c5;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600">${escapeHtml(message.action)}</a></p>
<p style="margin:0 0 8px;font-size:13px;color:#52606d">${escapeHtml(fill(catalog.linkHint, values))}<br><a href="${escapeHtml(vars.sessionsURL)}" style="color:#2457c5;word-break:break-all">${escapeHtml(vars.sessionsURL)}</a></p>
<p style="margin:16px 0 0;font-size:14px;line-height:1.5">${escapeHtml(security)}: <a href="${escapeHtml(vars.securityURL)}" style="color:#2457c5;word-break:break-all">${escapeHtml(vars.securityURL)}</a></p>
<p style="margin:24px 0 0;font-size:14px">${escapeHtml(signature)}</p>`,
  );
  return { subject, text, html };
}
