import type { Config } from "../config/index.js";
import type { SecondaryStorage } from "../storage/secondary/types.js";
import type { RateLimitDeclaration } from "./endpoint.js";
import { APIError } from "./errors.js";
import { HTTP_MESSAGES } from "./messages.js";

interface Rule {
  window: number; // seconds
  max: number;
}

/** The rules a route declares by class (Endpoint.rateLimit). */
const CLASS_RULES: Record<Exclude<RateLimitDeclaration, object>, Rule> = {
  // Every route that checks or sets a password, or signs in: each request costs a password hash, and each answer
  // says whether a guess was right.
  credential: { window: 10, max: 3 },
  // Every route that mails a link to an address.
  mail: { window: 60, max: 3 },
};

/**
 * The key every request that no route matches is counted under, per client: one counter for all of them, so a
 * client cannot make a counter per made-up path.
 */
export const UNMATCHED_ROUTE = "(unmatched)";

export interface RateLimiter {
  /**
   * Counts one request of the client to `route` and throws 429 (with Retry-After and X-Retry-After) once it has
   * used up its allowance. `route` is what the router matched: the route's declared path (`/sign-in/email`,
   * `/reset-password/:token`), never the URL as the client spelled it, so `/sign-in/%65mail`, `/%73ign-in/email` or
   * `//sign-in/email` count against the same allowance as `/sign-in/email` (the router decodes them to it).
   */
  check(ip: string, route: string, declared?: RateLimitDeclaration): Promise<void>;
}

/** Throws the 429 every limit answers: the message, and when to try again in both headers clients read. */
export function tooManyRequests(retryAfterMs: number): APIError {
  const retryAfter = String(Math.max(1, Math.ceil(retryAfterMs / 1000)));
  return new APIError("TOO_MANY_REQUESTS", HTTP_MESSAGES.TOO_MANY_REQUESTS_PLEASE_TRY_AGAIN_LATER, {
    headers: { "X-Retry-After": retryAfter, "Retry-After": retryAfter },
  });
}

/**
 * Fixed-window counters in secondary storage, keyed by client address and matched route, so that every instance
 * sharing a Redis shares the limits. A route's rule: `rateLimit.customRules` by exact declared path or "prefix*",
 * else the class the route declares, else the default `rateLimit.window`/`max`. `onRefused` is told of each 429
 * (the metrics' refusal counter).
 */
export function createRateLimiter(config: Config, storage: SecondaryStorage, onRefused?: () => void): RateLimiter {
  const defaults: Rule = { window: config.rateLimit.window, max: config.rateLimit.max };
  const custom = Object.entries(config.rateLimit.customRules);
  const exact = new Map(custom.filter(([k]) => !k.endsWith("*")));
  const prefixes = custom.filter(([k]) => k.endsWith("*")).map(([k, v]) => [k.slice(0, -1), v] as const);

  const ruleFor = (route: string, declared: RateLimitDeclaration | undefined): Rule | false => {
    const own = exact.get(route);
    if (own !== undefined) return own;
    for (const [prefix, rule] of prefixes) if (route.startsWith(prefix)) return rule;
    if (declared === undefined) return defaults;
    return typeof declared === "string" ? CLASS_RULES[declared] : declared;
  };

  return {
    async check(ip, route, declared) {
      const rule = ruleFor(route, declared);
      if (!rule) return;
      const { count, ttlMs } = await storage.increment(`rl:${ip}|${route}`, rule.window * 1000);
      if (count > rule.max) {
        onRefused?.();
        throw tooManyRequests(ttlMs);
      }
    },
  };
}
