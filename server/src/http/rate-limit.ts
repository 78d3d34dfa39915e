import type { Config } from "../config/index.js";
import type { SecondaryStorage } from "../storage/secondary/types.js";
import { APIError, MESSAGES } from "./errors.js";

interface Rule {
  window: number; // seconds
  max: number;
}

/**
 * Fixed-window counters in secondary storage, keyed by client address and normalised path, so that every
 * instance sharing a Redis shares the limits. Built-in stricter rules guard the routes that hash passwords
 * or send mail (API-NOTES.md 1.8); `rateLimit.customRules` override them by exact path or "prefix*".
 */
const BUILT_IN: { test: (path: string) => boolean; rule: Rule }[] = [
  {
    test: (p) => ["/sign-in", "/sign-up", "/change-password", "/change-email"].some((prefix) => p.startsWith(prefix)),
    rule: { window: 10, max: 3 },
  },
  {
    test: (p) =>
      p === "/request-password-reset" || p === "/send-verification-email" || p.startsWith("/forget-password"),
    rule: { window: 60, max: 3 },
  },
  {
    // Each answer says whether a username exists: enough for a form checking as its user types, not for a
    // crawl of the user base.
    test: (p) => p === "/is-username-available",
    rule: { window: 60, max: 30 },
  },
];

export interface RateLimiter {
  /** Throws 429 (with X-Retry-After) when the client has used up the path's allowance. */
  check(ip: string, path: string): Promise<void>;
}

export function createRateLimiter(config: Config, storage: SecondaryStorage): RateLimiter {
  const defaults: Rule = { window: config.rateLimit.window, max: config.rateLimit.max };
  const custom = Object.entries(config.rateLimit.customRules);
  const exact = new Map(custom.filter(([k]) => !k.endsWith("*")));
  const prefixes = custom.filter(([k]) => k.endsWith("*")).map(([k, v]) => [k.slice(0, -1), v] as const);

  const ruleFor = (path: string): Rule | false => {
    const own = exact.get(path);
    if (own !== undefined) return own;
    for (const [prefix, rule] of prefixes) if (path.startsWith(prefix)) return rule;
    return BUILT_IN.find((b) => b.test(path))?.rule ?? defaults;
  };

  return {
    async check(ip, path) {
      const rule = ruleFor(path);
      if (!rule) return;
      const { count, ttlMs } = await storage.increment(`rl:${ip}|${path}`, rule.window * 1000);
      if (count > rule.max) {
        const retryAfter = String(Math.max(1, Math.ceil(ttlMs / 1000)));
        throw new APIError("TOO_MANY_REQUESTS", MESSAGES.TOO_MANY_REQUESTS, {
          headers: { "X-Retry-After": retryAfter, "Retry-After": retryAfter },
        });
      }
    },
  };
}
