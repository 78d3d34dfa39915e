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
