import { availableParallelism } from "node:os";
import { z } from "zod";
import { optionsSchema, type GatehouseOptions, type ParsedOptions } from "./options.js";

export { optionsSchema, MAX_COOKIE_AGE, type GatehouseOptions, type ParsedOptions } from "./options.js";

/** Raised when options or the environment hold a bad value; the message names the setting. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

export interface CookieNames {
  sessionToken: string;
  sessionData: string;
  dontRemember: string;
  /** While impersonating: the administrator's own session, kept aside (API-NOTES.md 1.5). */
  adminSession: string;
  /** Ties an OAuth flow to the browser that started it (signed state id, API-NOTES.md 1.5). */
  state: string;
  /**
   * Marks the browser that registered a user (or proved their password): a verification link opened there keeps
   * the password (verification/registrant-cookie.ts).
   */
  registrant: string;
  /** The pending second step: its signed challenge token (two-factor/, API-NOTES-PLUGINS.md 2.6). */
  twoFactor: string;
  /** A trusted device: its signed id and token, which skip the second step in that browser. */
  trustDevice: string;
  /** This browser's device id, signed: a sign-in from a browser the user has not used mails them (new-device/). */
  device: string;
}

/** The frozen, fully resolved configuration every module receives. Nothing below reads process.env. */
export interface Config extends ParsedOptions {
  secret: string;
  production: boolean;
  secureCookies: boolean;
  cookieNames: CookieNames;
  rateLimitEnabled: boolean;
  hashConcurrency: number;
  /** Origins trusted for callback URLs and the origin check (baseURL's own origin first). */
  trustedOriginList: readonly string[];
}

export interface ResolveContext {
  nodeEnv?: string | undefined;
  /** Used when options.secret is absent outside production (the development secret). */
  fallbackSecret?: string | undefined;
}

export function formatZodError(error: z.ZodError, root = "options"): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.length ? `${root}.${issue.path.join(".")}` : root;
      return `${path}: ${issue.message}`;
    })
    .join("; ");
}

/**
 * `null` in options means "not set", as the README's block of defaults writes it (`"baseURL": null`): such keys are
 * dropped before validation, so the default applies. Only plain objects are walked (not arrays or functions).
 */
function withoutNulls(value: unknown): unknown {
  if (!value || typeof value !== "object" || Array.isArray(value) || Object.getPrototypeOf(value) !== Object.prototype) {
    return value;
  }
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) if (item !== null) out[key] = withoutNulls(item);
  return out;
}

export function parseOptions(input: GatehouseOptions | unknown): ParsedOptions {
  const parsed = optionsSchema.safeParse(withoutNulls(input ?? {}));
  if (!parsed.success) throw new ConfigError(`Invalid configuration: ${formatZodError(parsed.error)}`);
  return parsed.data;
}

export function resolveConfig(input: GatehouseOptions, ctx: ResolveContext = {}): Config {
  const options = parseOptions(input);
  const production = ctx.nodeEnv === "production";
  const secret = options.secret ?? (production ? undefined : ctx.fallbackSecret);
  if (!secret) throw new ConfigError("GATEHOUSE_SECRET is required in production (32 or more characters)");
  if (production && secret.length < 32) {
    throw new ConfigError("GATEHOUSE_SECRET must be at least 32 characters in production");
  }
  if (production && !options.email.smtpUrl) {
    const needMail = [
      options.emailVerification.enabled && "email verification (emailVerification.enabled)",
      options.emailAndPassword.resetPassword.enabled && "password reset (emailAndPassword.resetPassword.enabled)",
      options.user.changeEmail.enabled && "email change (user.changeEmail.enabled)",
      options.user.deleteUser.enabled &&
        options.user.deleteUser.sendDeleteAccountVerification &&
        "account deletion by email (user.deleteUser.sendDeleteAccountVerification)",
      options.magicLink.enabled && "sign-in links (magicLink.enabled)",
      options.emailOTP.enabled && "one-time codes by email (emailOTP.enabled)",
      options.newDeviceEmail.enabled === true && "new-device mail (newDeviceEmail.enabled)",
    ].filter(Boolean);
    if (needMail.length) {
      throw new ConfigError(
        `SMTP_URL is required in production for ${needMail.join(", ")}; set SMTP_URL (and MAIL_FROM) or turn these off`,
      );
    }
  }
  const baseOrigin = options.baseURL ? new URL(options.baseURL).origin : undefined;
  const secureCookies =
    options.advanced.useSecureCookies ?? (options.baseURL ? options.baseURL.startsWith("https://") : production);
  const prefix = (secureCookies ? "__Secure-" : "") + options.advanced.cookiePrefix;
  for (const origin of options.trustedOrigins) validateTrustedOrigin(origin);

  const config: Config = {
    ...options,
    secret,
    production,
    secureCookies,
    cookieNames: {
      sessionToken: `${prefix}.session_token`,
      sessionData: `${prefix}.session_data`,
      dontRemember: `${prefix}.dont_remember`,
      adminSession: `${prefix}.admin_session`,
      state: `${prefix}.state`,
      registrant: `${prefix}.registrant`,
      twoFactor: `${prefix}.two_factor`,
      trustDevice: `${prefix}.trust_device`,
      device: `${prefix}.device`,
    },
    rateLimitEnabled: options.rateLimit.enabled ?? ctx.nodeEnv !== "test",
    hashConcurrency: options.password.concurrency ?? Math.max(1, availableParallelism()),
    trustedOriginList: Object.freeze([...(baseOrigin ? [baseOrigin] : []), ...options.trustedOrigins]),
  };
  return deepFreeze(config);
}

function validateTrustedOrigin(origin: string): void {
  if (origin.includes("*")) {
    if (!/^([a-z][a-z0-9+.-]*:\/\/)?[A-Za-z0-9*.-]+(:\d+)?$/.test(origin)) {
      throw new ConfigError(`Invalid configuration: trustedOrigins: "${origin}" is not an origin pattern`);
    }
    return;
  }
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    throw new ConfigError(`Invalid configuration: trustedOrigins: "${origin}" is not a URL`);
  }
  if ((url.protocol === "http:" || url.protocol === "https:") && url.pathname !== "/") {
    throw new ConfigError(`Invalid configuration: trustedOrigins: "${origin}" must be an origin without a path`);
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}
