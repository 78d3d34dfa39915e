import { pickLanguage } from "../email/language.js";
import { renderNewDeviceMail } from "../email/templates.js";
import { requireBase } from "../http/public-base.js";
import type { User } from "../storage/models.js";
import { inBackground } from "../verification/background.js";
import { browserLabel, systemLabel, type UserAgentInfo } from "./user-agent.js";
import type { NewDeviceDeps } from "./deps.js";

/** The web app's pages the mail leads to: the account page's sessions (and its password form), and Security. */
export const SESSIONS_PAGE = "/account#sessions";
export const SECURITY_PAGE = "/account/security";

export interface NewDeviceSignIn {
  at: Date;
  agent: UserAgentInfo;
  ip: string;
}

/**
 * Mails "new sign-in to your account" in the user's language (else the request's), in the background as the other
 * notices go (verification/notices.ts): the sign-in's answer never waits for SMTP, and a mail that fails is a log
 * line, never a failed sign-in. Links are built on `email.appURL`, else BASE_URL, never on the request's Host.
 * Called once the sign-in is committed (sign-in-device.ts, through stores.afterCommit): it sends at once.
 */
export function queueNewDeviceMail(
  runtime: NewDeviceDeps,
  acceptLanguage: string | null,
  user: Pick<User, "id" | "name" | "email" | "lang">,
  signIn: NewDeviceSignIn,
): void {
  if (runtime.mailer.delivers === false) return;
  inBackground(runtime, "new-device-mail", async () => {
    const app = (runtime.config.email.appURL ?? requireBase(runtime)).replace(/\/+$/, "");
    const rendered = renderNewDeviceMail(pickLanguage(user.lang, acceptLanguage), {
      name: user.name,
      email: user.email,
      at: signIn.at,
      browser: browserLabel(signIn.agent),
      system: systemLabel(signIn.agent),
      ip: signIn.ip,
      sessionsURL: `${app}${SESSIONS_PAGE}`,
      securityURL: `${app}${SECURITY_PAGE}`,
    });
    await runtime.mailer.send({ to: user.email, kind: "newDevice", ...rendered });
    runtime.logger.info({ userId: user.id }, "new-device mail sent");
  });
}
