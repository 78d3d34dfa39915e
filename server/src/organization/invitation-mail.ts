import { pickLanguage } from "../email/language.js";
import { renderMail } from "../email/templates.js";
import { requireBase } from "../http/public-base.js";
import type { User } from "../storage/index.js";
import type { OrganizationContext } from "./deps.js";
import type { Invitation, Organization } from "./store/index.js";

/**
 * Where invitation links lead: the web app's invitation page, on `email.appURL`, else BASE_URL, else the base
 * fixed when the service started listening (never the inviter's request's Host header).
 */
export function invitationUrl(ctx: OrganizationContext, invitationId: string): string {
  const base = (ctx.runtime.config.email.appURL ?? requireBase(ctx.runtime)).replace(/\/+$/, "");
  return `${base}/invitation/${encodeURIComponent(invitationId)}`;
}

/**
 * Mails an invitation in the recipient's language: their saved one when they have an account, else the
 * inviter's request's Accept-Language, else English.
 */
export async function sendInvitationMail(
  ctx: OrganizationContext,
  invitation: Invitation,
  organization: Organization,
  inviter: Pick<User, "name" | "email">,
): Promise<void> {
  const { runtime } = ctx;
  const recipient = await runtime.stores.users.findUserByEmail(invitation.email);
  const language = pickLanguage(recipient?.lang, ctx.headers.get("accept-language"));
  const rendered = renderMail("invitation", language, {
    name: recipient?.name ?? invitation.email,
    email: invitation.email,
    url: invitationUrl(ctx, invitation.id),
    expiresIn: runtime.config.organization.invitationExpiresIn,
    organizationName: organization.name,
    inviterName: inviter.name,
    inviterEmail: inviter.email,
  });
  await runtime.mailer.send({ to: invitation.email, kind: "invitation", ...rendered });
}
