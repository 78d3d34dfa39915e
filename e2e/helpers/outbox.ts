import { vi } from "vitest";
import type { RunningService } from "./service.js";

/**
 * The first link to `route` (a path prefix such as "/api/auth/reset-password/" or "/invitation/") in a message of
 * the service's development outbox for `email`, newest first, polled until it arrives (some routes mail after they
 * answer). For a service started without an SMTP server (startService's default).
 */
export function outboxLink(service: RunningService, email: string, route: string): Promise<string> {
  const outbox = service.gatehouse.runtime.mailer.outbox;
  if (!outbox) throw new Error("this service sends mail to an SMTP server, not to the development outbox");
  return vi.waitFor(
    () => {
      for (const mail of outbox) {
        if (mail.to !== email) continue;
        const found = (mail.text.match(/https?:\/\/[^\s)>\]]+/g) ?? []).find((link) => new URL(link).pathname.startsWith(route));
        if (found) return found;
      }
      throw new Error(`no ${route} link mailed to ${email} yet`);
    },
    { timeout: 10_000, interval: 50 },
  );
}

/**
 * The one-time code (`digits` digits on a line of its own) in the newest message of the development outbox for
 * `email`, once one newer than `after` (a message id; 0 for any) has arrived.
 */
export function outboxCode(service: RunningService, email: string, after = 0, digits = 6): Promise<{ code: string; id: number }> {
  const outbox = service.gatehouse.runtime.mailer.outbox;
  if (!outbox) throw new Error("this service sends mail to an SMTP server, not to the development outbox");
  return vi.waitFor(
    () => {
      const mail = outbox.find((entry) => entry.to === email && entry.id > after);
      const code = mail?.text.match(new RegExp(`^\\s*(\\d{${digits}})\\s*$`, "m"))?.[1];
      if (!mail || !code) throw new Error(`no code mailed to ${email} yet`);
      return { code, id: mail.id };
    },
    { timeout: 10_000, interval: 50 },
  );
}

/** The id of the newest message of the development outbox (0 when empty): codes mailed after it are new. */
export function latestOutboxId(service: RunningService): number {
  return service.gatehouse.runtime.mailer.outbox?.[0]?.id ?? 0;
}
