import type { EndpointContext } from "../http/endpoint.js";
import type { Session, User } from "../storage/models.js";
import { deviceKey, DEVICE_COOKIE_LIFE, newDeviceId, presentedDeviceId, setDeviceCookie } from "./device-cookie.js";
import type { NewDeviceDeps } from "./deps.js";
import { queueNewDeviceMail } from "./mail.js";
import { parseUserAgent } from "./user-agent.js";

/** The module's name in MODULES (module.ts). */
export const NEW_DEVICE_MODULE = "new-device";

/** Browsers kept per user: the ones seen last. A browser dropped from the list mails again at its next sign-in. */
export const DEVICES_KEPT = 50;

/**
 * Whether sign-ins are checked for new browsers: the module installed and `newDeviceEmail.enabled`, which unset means
 * "when the service has a mail server" (a mailer that delivers and is not the development outbox).
 */
export function newDeviceMailActive(runtime: Pick<NewDeviceDeps, "config" | "mailer" | "modules">): boolean {
  if (!runtime.modules.some((m) => m.name === NEW_DEVICE_MODULE)) return false;
  const enabled = runtime.config.newDeviceEmail.enabled ?? (runtime.mailer.outbox === null && runtime.mailer.delivers !== false);
  return enabled && runtime.mailer.delivers !== false;
}

/** A sign-in that opened a session (session/sign-in.ts, after its cookies are set). */
export interface FinishedSignIn {
  user: User;
  session: Session;
  /** An administrator's impersonation: not a sign-in of the user. */
  impersonatedBy?: string | undefined;
  /** A session replacing one of this browser's (a password change, a second factor confirmed): not a new sign-in. */
  renewal: boolean;
}

/**
 * The new-device check, on every way in (session/sign-in.ts runs it once a sign-in has its session): this browser's
 * device cookie (its id signed; a missing, forged or tampered one gets a new id) is renewed for a year, and the
 * browser is looked up among the user's, by its id and the browser and system its user agent names. Known as it is:
 * nothing more. Otherwise it is recorded, and the user is mailed, unless it is the first browser on record for them
 * (the sign-up's own sign-in, or the first after the feature was turned on, has nothing to compare with). The
 * statements run in the sign-in's transaction when it has one; the mail is sent in the background once that
 * transaction has committed (stores.afterCommit), never for a sign-in that rolls back. Whatever fails here is logged
 * and never fails the sign-in.
 */
export async function noteSignInDevice(ctx: EndpointContext<unknown, unknown, NewDeviceDeps>, signedIn: FinishedSignIn): Promise<void> {
  const { runtime } = ctx;
  if (signedIn.impersonatedBy || signedIn.renewal || !newDeviceMailActive(runtime)) return;
  try {
    const presented = presentedDeviceId(ctx, runtime.config);
    const deviceId = presented ?? newDeviceId();
    setDeviceCookie(ctx, runtime.config, deviceId);

    const { user } = signedIn;
    const agent = parseUserAgent(ctx.headers.get("user-agent"));
    const seen = { userId: user.id, deviceKey: deviceKey(user.id, deviceId), browser: agent.browser ?? "", system: agent.system ?? "" };
    const now = runtime.now();
    const devices = runtime.stores.signInDevices;
    if (presented && (await devices.touchDevice(seen, now))) return;

    const first = !(await devices.hasDevices(user.id));
    if (!(await devices.rememberDevice(seen, now))) return;
    await devices.pruneDevices(user.id, new Date(now.getTime() - DEVICE_COOKIE_LIFE * 1000), DEVICES_KEPT);
    if (first) {
      runtime.logger.info({ userId: user.id }, "first browser on record: no new-device mail");
      return;
    }
    // Only once the sign-in is committed: one whose transaction rolls back (or fails to commit) mails nothing.
    const language = ctx.headers.get("accept-language");
    const ip = ctx.ip.slice(0, 64);
    runtime.stores.afterCommit(() => queueNewDeviceMail(runtime, language, user, { at: now, agent, ip }));
  } catch (error) {
    runtime.logger.error({ err: (error as Error).message, userId: signedIn.user.id }, "new-device check failed");
  }
}
