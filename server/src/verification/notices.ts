import { pickLanguage } from "../email/language.js";
import { renderNotice, type NoticeKind } from "../email/templates.js";
import { requireBase } from "../http/public-base.js";
import type { Runtime } from "../runtime.js";
import type { User } from "../storage/models.js";
import { inBackground } from "./background.js";

/**
 * Tells a user, in their language (else the request's), that their password or address changed, so that a change
 * they did not make does not go unnoticed. Sent after the change, in the background (the answer never waits for
 * SMTP, and a lost notice never undoes the change); it carries no token. Not attempted when the service has no way
 * to send mail.
 */
/** What a notice needs: the mailer, the base its link is built on, and the log for a notice that fails. */
type NoticeDeps = Pick<Runtime, "config" | "mailer" | "base" | "logger">;

function sendNotice(
  runtime: NoticeDeps,
  acceptLanguage: string | null,
  kind: NoticeKind,
  to: string,
  user: Pick<User, "name" | "lang">,
  extra: () => { newEmail?: string; url?: string },
): void {
  if (runtime.mailer.delivers === false) return;
  inBackground(runtime, `notice-${kind}`, async () => {
    const language = pickLanguage(user.lang, acceptLanguage);
    // Built here, not before: a missing base URL (library use) costs the notice, never the change's answer.
    const rendered = renderNotice(kind, language, { name: user.name, email: to, ...extra() });
    await runtime.mailer.send({ to, kind, ...rendered });
  });
}

/** The app's own "forgot password" page, on `email.appURL` else the service's base: what to do if it was not them. */
function forgotPasswordPage(runtime: NoticeDeps): string {
  return `${(runtime.config.email.appURL ?? requireBase(runtime)).replace(/\/+$/, "")}/forgot-password`;
}

/** "Your password was changed": after change-password, reset-password, set-password and an administrator's set. */
export function notifyPasswordChanged(runtime: NoticeDeps, headers: Headers, user: Pick<User, "name" | "lang" | "email">): void {
  sendNotice(runtime, headers.get("accept-language"), "passwordChanged", user.email, user, () => ({
    url: forgotPasswordPage(runtime),
  }));
}

/** "Your email address was changed", to the address the account had, once the change took effect. */
export function notifyEmailChanged(
  runtime: NoticeDeps,
  headers: Headers,
  user: Pick<User, "name" | "lang">,
  oldEmail: string,
  newEmail: string,
): void {
  sendNotice(runtime, headers.get("accept-language"), "emailChanged", oldEmail, user, () => ({ newEmail }));
}
