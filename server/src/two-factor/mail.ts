import { pickLanguage } from "../email/language.js";
import { renderCodeMail } from "../email/templates.js";
import type { EndpointContext } from "../http/endpoint.js";
import type { User } from "../storage/models.js";

/**
 * Mails a second step's code (email/templates.ts renderCodeMail): "twoFactorSignIn" at a sign-in, "twoFactorEnrol"
 * while the user proves the mailbox before the email code becomes a factor. In the user's language, else the
 * request's; the code is never in the subject.
 */
export async function sendSecondStepCode(
  ctx: EndpointContext,
  user: Pick<User, "name" | "email" | "lang">,
  code: string,
  expiresIn: number,
  purpose: "sign-in" | "enrol",
): Promise<void> {
  const language = pickLanguage(user.lang, ctx.headers.get("accept-language"));
  const kind = purpose === "sign-in" ? "twoFactorSignIn" : "twoFactorEnrol";
  const rendered = renderCodeMail(kind, language, { name: user.name, email: user.email, code, expiresIn });
  await ctx.runtime.mailer.send({ to: user.email, kind, ...rendered });
}
