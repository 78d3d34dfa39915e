import { pickLanguage } from "../email/language.js";
import { renderMail, type MailKind } from "../email/templates.js";
import type { EndpointContext } from "../http/endpoint.js";
import { requireBase } from "../http/public-base.js";
import type { User } from "../storage/models.js";
import { mailCodeInsteadOfLink } from "../passwordless/verification-hooks.js";
import { issueEmailToken } from "./email-token.js";

/**
 * The public API base links in mail point at: BASE_URL, else the base fixed when the service started listening
 * (http/public-base.ts). Never the request's origin: its Host header is the client's to choose, and a reset link on
 * an attacker's host hands them the token.
 */
export function apiBase(ctx: EndpointContext): string {
  return requireBase(ctx.runtime) + ctx.runtime.config.basePath;
}

export function withQuery(url: string, params: Record<string, string>): string {
  const query = new URLSearchParams(params).toString();
  return url + (url.includes("?") ? "&" : "?") + query;
}

/** Renders a message in the user's language (else the request's) and hands it to the mailer. */
export async function mailUser(
  ctx: EndpointContext,
  kind: MailKind,
  to: string,
  user: Pick<User, "name" | "email" | "lang">,
  url: string,
  expiresIn: number,
  extra: { newEmail?: string } = {},
): Promise<void> {
  const language = pickLanguage(user.lang, ctx.headers.get("accept-language"));
  const rendered = renderMail(kind, language, { name: user.name, email: to, url, expiresIn, ...extra });
  await ctx.runtime.mailer.send({ to, kind, ...rendered });
}

/**
 * Mails a verification link for `user.email`, or, for an email change, a link that moves the account to
 * `updateTo` (sent to the current address first, SPEC.md section 4). The link's one-time row is removed again
 * when the mail cannot be sent, so no usable token outlives a lost mail.
 */
export async function sendVerificationMail(
  ctx: EndpointContext,
  user: User,
  opts: { callbackURL?: string | undefined; updateTo?: string; to?: string } = {},
): Promise<void> {
  const { runtime } = ctx;
  // emailOTP.overrideDefaultEmailVerification: the address proves itself with a mailed code instead.
  if (!opts.updateTo && (await mailCodeInsteadOfLink(ctx, user))) return;
  const expiresIn = runtime.config.emailVerification.expiresIn;
  const now = runtime.now();
  const { token, identifier } = await issueEmailToken(
    runtime.stores,
    opts.updateTo
      ? { email: user.email, userId: user.id, updateTo: opts.updateTo, purpose: "change-email" }
      : { email: user.email, userId: user.id, purpose: "verify-email" },
    { secret: runtime.config.secret, expiresIn, now },
  );
  const url = withQuery(`${apiBase(ctx)}/verify-email`, {
    token,
    callbackURL: opts.callbackURL || (opts.updateTo ? "/account?emailChanged=1" : "/verify-email"),
  });
  try {
    await mailUser(ctx, opts.updateTo ? "changeEmail" : "verification", opts.to ?? user.email, user, url, expiresIn, {
      ...(opts.updateTo ? { newEmail: opts.updateTo } : {}),
    });
  } catch (error) {
    await runtime.stores.verifications.consumeVerification(identifier, now);
    throw error;
  }
}
