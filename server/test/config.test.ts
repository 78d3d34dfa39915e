import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadServiceSettings } from "../src/config/env.js";
import { ConfigError, resolveConfig } from "../src/config/index.js";

const dir = () => mkdtempSync(join(tmpdir(), "gatehouse-config-"));

describe("configuration", () => {
  it("uses the defaults of API-NOTES.md section 1", () => {
    const config = resolveConfig({ secret: "s".repeat(32) });
    expect(config.session).toMatchObject({ expiresIn: 604_800, updateAge: 86_400, freshAge: 86_400 });
    expect(config.session.cookieCache).toEqual({ enabled: false, maxAge: 300 });
    expect(config.emailAndPassword).toMatchObject({ minPasswordLength: 8, maxPasswordLength: 128, autoSignIn: true });
    expect(config.rateLimit).toMatchObject({ window: 10, max: 100 });
    expect(config.basePath).toBe("/api/auth");
    expect(config.database.url).toBe("sqlite://./data/gatehouse.db");
    expect(config.cookieNames.sessionToken).toBe("better-auth.session_token");
    expect(Object.isFrozen(config.session)).toBe(true);
  });

  it("accepts the README's block of defaults as an options file, and it gives the same configuration", () => {
    const readme = readFileSync(fileURLToPath(new URL("../../README.md", import.meta.url)), "utf8");
    const block = /### Options[\s\S]*?```json\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(block).toBeDefined();
    const documented = JSON.parse(block!) as Record<string, unknown>;
    const fromReadme = resolveConfig({ ...documented, secret: "s".repeat(32) } as never);
    const fromDefaults = resolveConfig({ secret: "s".repeat(32) });
    expect(fromReadme.session).toEqual(fromDefaults.session);
    expect(fromReadme.database).toEqual(fromDefaults.database);
    // `rateLimit.enabled` left out means "on, except under NODE_ENV=test"; the README writes the outcome, true.
    expect({ ...fromReadme.rateLimit, enabled: undefined }).toEqual({ ...fromDefaults.rateLimit, enabled: undefined });
    expect(fromReadme.rateLimitEnabled).toBe(fromDefaults.rateLimitEnabled);
    for (const key of ["emailAndPassword", "emailVerification", "user", "organization", "admin", "username", "account", "advanced", "password"] as const) {
      expect(fromReadme[key], key).toEqual(fromDefaults[key]);
    }
  });

  it("uses __Secure- cookies on https and under production", () => {
    expect(resolveConfig({ secret: "s".repeat(32), baseURL: "https://auth.example.com" }).cookieNames.sessionToken).toBe(
      "__Secure-better-auth.session_token",
    );
    const prod = resolveConfig({ secret: "s".repeat(32), email: { smtpUrl: "smtp://mail:25" } }, { nodeEnv: "production" });
    expect(prod.secureCookies).toBe(true);
    const custom = resolveConfig({ secret: "s".repeat(32), advanced: { cookiePrefix: "gh", useSecureCookies: false } });
    expect(custom.cookieNames.sessionData).toBe("gh.session_data");
  });

  it("stops with a message naming a bad option", () => {
    expect(() => resolveConfig({ secret: "x", session: { expiresIn: -5 } } as never)).toThrow(/options\.session\.expiresIn/);
    expect(() => resolveConfig({ secret: "x", session: { cookieCache: { maxAge: "a" } } } as never)).toThrow(
      /options\.session\.cookieCache\.maxAge/,
    );
    expect(() => resolveConfig({ secret: "x", sesion: {} } as never)).toThrow(/sesion/);
    expect(() => resolveConfig({ secret: "x", trustedOrigins: ["not a url"] })).toThrow(/trustedOrigins/);
    expect(() => resolveConfig({ secret: "x", emailAndPassword: { minPasswordLength: 50, maxPasswordLength: 10 } })).toThrow(
      /minPasswordLength/,
    );
    expect(() => resolveConfig({ secret: "x", session: { expiresIn: 40_000_000 } })).toThrow(/expiresIn/);
  });

  it("refuses to start in production without a mailer for the features that mail", () => {
    expect(() => resolveConfig({ secret: "s".repeat(32) }, { nodeEnv: "production" })).toThrow(/SMTP_URL is required/);
    const quiet = {
      secret: "s".repeat(32),
      emailVerification: { enabled: false },
      emailAndPassword: { resetPassword: { enabled: false } },
      user: { changeEmail: { enabled: false } },
      magicLink: { enabled: false },
      emailOTP: { enabled: false },
    };
    expect(resolveConfig(quiet, { nodeEnv: "production" }).production).toBe(true);
  });

  it("refuses to start in production without a 32-character secret", () => {
    expect(() => resolveConfig({}, { nodeEnv: "production" })).toThrow(ConfigError);
    expect(() => resolveConfig({ secret: "short" }, { nodeEnv: "production" })).toThrow(/32/);
    expect(() => loadServiceSettings({ NODE_ENV: "production" })).toThrow(/GATEHOUSE_SECRET/);
  });

  it.runIf(process.platform === "linux")("starts Node through the launcher with the malloc settings added before GLIBC_TUNABLES", () => {
    const launcher = fileURLToPath(new URL("../bin/gatehouse", import.meta.url));
    // Node is asked to print the variable it was given, instead of running the service.
    const env = { ...process.env, GATEHOUSE_NODE_ARGS: "-p process.env.GLIBC_TUNABLES", GLIBC_TUNABLES: "glibc.malloc.arena_max=4" };
    const printed = execFileSync(launcher, ["serve"], { env, encoding: "utf8" }).trim();
    // The operator's own value comes last, so it wins over the launcher's.
    expect(printed).toBe(
      "glibc.malloc.mmap_threshold=67108864:glibc.malloc.trim_threshold=268435456:glibc.malloc.arena_max=1:glibc.malloc.arena_max=4",
    );
  });

  it.runIf(process.platform === "linux")("warns in production when started without the launcher's malloc settings", () => {
    const secret = { NODE_ENV: "production", GATEHOUSE_SECRET: "s".repeat(32), GATEHOUSE_DATA_DIR: dir() };
    expect(loadServiceSettings(secret).warnings.join(" ")).toMatch(/launcher/);
    const launched = { ...secret, GLIBC_TUNABLES: "glibc.malloc.mmap_threshold=67108864:glibc.malloc.trim_threshold=268435456" };
    expect(loadServiceSettings(launched).warnings).toEqual([]);
  });

  it("generates a development secret once and keeps it in the data folder", () => {
    const data = dir();
    const first = loadServiceSettings({ GATEHOUSE_DATA_DIR: data });
    const second = loadServiceSettings({ GATEHOUSE_DATA_DIR: data });
    expect(first.fallbackSecret).toHaveLength(43);
    expect(second.fallbackSecret).toBe(first.fallbackSecret);
    expect(readFileSync(join(data, "secret"), "utf8").trim()).toBe(first.fallbackSecret);
    expect(first.warnings.join(" ")).toMatch(/GATEHOUSE_SECRET/);
  });

  it("reads the environment, which wins over the GATEHOUSE_CONFIG file", () => {
    const data = dir();
    const file = join(data, "gatehouse.json");
    writeFileSync(
      file,
      JSON.stringify({
        baseURL: "http://file.example",
        session: { expiresIn: 3600, cookieCache: { enabled: true, maxAge: 60 } },
        rateLimit: { customRules: { "/ok": false } },
        trustedOrigins: ["http://from-file.example"],
      }),
    );
    const settings = loadServiceSettings({
      GATEHOUSE_CONFIG: file,
      GATEHOUSE_DATA_DIR: data,
      BASE_URL: "https://auth.example.com/",
      DATABASE_URL: "postgres://u@db:5432/app",
      REDIS_URL: "redis://cache:6379",
      TRUSTED_ORIGINS: "https://a.example, https://b.example",
      LOG_LEVEL: "warn",
      PORT: "8080",
      GATEHOUSE_SECRET: "z".repeat(40),
    });
    expect(settings.port).toBe(8080);
    expect(settings.options).toMatchObject({
      baseURL: "https://auth.example.com",
      database: { url: "postgres://u@db:5432/app" },
      redis: { url: "redis://cache:6379" },
      trustedOrigins: ["https://a.example", "https://b.example"],
      logger: { level: "warn" },
      session: { expiresIn: 3600, cookieCache: { enabled: true, maxAge: 60 } },
      secret: "z".repeat(40),
    });
    const config = resolveConfig(settings.options);
    expect(config.trustedOriginList).toEqual(["https://auth.example.com", "https://a.example", "https://b.example"]);
  });

  it("names the variable when an environment value is bad", () => {
    expect(() => loadServiceSettings({ PORT: "eighty", GATEHOUSE_DATA_DIR: dir() })).toThrow(/PORT/);
    expect(() => loadServiceSettings({ DATABASE_URL: "mysql://x", GATEHOUSE_DATA_DIR: dir() })).toThrow(/DATABASE_URL/);
    expect(() => loadServiceSettings({ REDIS_URL: "http://x", GATEHOUSE_DATA_DIR: dir() })).toThrow(/REDIS_URL/);
    expect(() => loadServiceSettings({ LOG_LEVEL: "loud", GATEHOUSE_DATA_DIR: dir() })).toThrow(/LOG_LEVEL/);
    expect(() => loadServiceSettings({ BASE_URL: "ftp://x", GATEHOUSE_DATA_DIR: dir() })).toThrow(/BASE_URL/);
    expect(() => loadServiceSettings({ GATEHOUSE_CONFIG: "/nonexistent.json", GATEHOUSE_DATA_DIR: dir() })).toThrow(
      /GATEHOUSE_CONFIG/,
    );
    const bad = join(dir(), "bad.json");
    writeFileSync(bad, "{ not json");
    expect(() => loadServiceSettings({ GATEHOUSE_CONFIG: bad, GATEHOUSE_DATA_DIR: dir() })).toThrow(/not valid JSON/);
  });
});
