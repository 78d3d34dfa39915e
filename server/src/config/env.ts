import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { ConfigError } from "./index.js";
import type { GatehouseOptions } from "./options.js";

/**
 * The one place that reads process.env. It turns the environment and the optional GATEHOUSE_CONFIG file
 * into options for createGatehouse(); the environment wins over the file.
 */
export interface ServiceSettings {
  options: GatehouseOptions;
  port: number;
  host: string;
  nodeEnv: string | undefined;
  dataDir: string;
  /** Folder of the built web app; "" serves the API only; undefined uses web/dist of the repository. */
  webRoot?: string | undefined;
  /** The development secret, generated once and kept in the data folder (never used in production). */
  fallbackSecret?: string;
  /** The niceness the service's helper threads get (GATEHOUSE_HELPER_NICE; 0 leaves them as they are). */
  helperThreadNice: number;
  warnings: string[];
}

type Env = Record<string, string | undefined>;

/** The helper threads' niceness unless GATEHOUSE_HELPER_NICE says otherwise (helper-threads.ts). */
const DEFAULT_HELPER_NICE = 10;

function parseNice(value: string | undefined): number {
  if (value === undefined || value.trim() === "") return DEFAULT_HELPER_NICE;
  const nice = Number(value);
  if (!Number.isInteger(nice) || nice < 0 || nice > 19) {
    throw new ConfigError(`GATEHOUSE_HELPER_NICE must be an integer from 0 to 19 (got "${value}")`);
  }
  return nice;
}

const LOG_LEVELS = ["debug", "info", "success", "warn", "error", "silent"] as const;

/**
 * `writeSecret: false` (the CLI's commands other than serve) never writes the development secret: an existing one is
 * read, else a throw-away one is used (those commands sign nothing), so that a command run from the wrong folder
 * leaves no new data folder behind.
 */
export function loadServiceSettings(env: Env = process.env, opts: { writeSecret?: boolean } = {}): ServiceSettings {
  const warnings: string[] = [];
  const fileOptions = readConfigFile(env.GATEHOUSE_CONFIG);
  const options: Record<string, unknown> = structuredClone(fileOptions);

  const port = parsePort(env.PORT);
  const host = env.HOST?.trim() || "0.0.0.0";
  if (env.BASE_URL !== undefined) options.baseURL = requireUrl("BASE_URL", env.BASE_URL);
  if (env.DATABASE_URL !== undefined) {
    options.database = { ...(options.database as object), url: requireDatabaseUrl(env.DATABASE_URL) };
  }
  if (env.REDIS_URL !== undefined) {
    if (!/^rediss?:\/\//.test(env.REDIS_URL)) throw new ConfigError("REDIS_URL must start with redis:// or rediss://");
    options.redis = { url: env.REDIS_URL };
  }
  if (env.GATEHOUSE_SECRET !== undefined) options.secret = env.GATEHOUSE_SECRET;
  if (env.SMTP_URL !== undefined && env.SMTP_URL.trim() !== "") {
    if (!/^smtps?:\/\//.test(env.SMTP_URL)) throw new ConfigError("SMTP_URL must start with smtp:// or smtps://");
    options.email = { ...(options.email as object), smtpUrl: env.SMTP_URL.trim() };
  }
  if (env.MAIL_FROM !== undefined && env.MAIL_FROM.trim() !== "") {
    options.email = { ...(options.email as object), from: env.MAIL_FROM.trim() };
  }
  if (env.TRUSTED_ORIGINS !== undefined) {
    options.trustedOrigins = env.TRUSTED_ORIGINS.split(",")
      .map((s) => s.trim())
      .filter(Boolean);
  }
  if (env.LOG_LEVEL !== undefined) {
    const level = env.LOG_LEVEL.trim().toLowerCase();
    if (!(LOG_LEVELS as readonly string[]).includes(level)) {
      throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")} (got "${env.LOG_LEVEL}")`);
    }
    options.logger = { ...(options.logger as object), level };
  }
  const metrics = metricsFromEnv(env);
  if (metrics) options.metrics = { ...(options.metrics as object), ...metrics };

  const nodeEnv = env.NODE_ENV;
  const dataDir = resolve(env.GATEHOUSE_DATA_DIR?.trim() || "./data");
  const helperThreadNice = parseNice(env.GATEHOUSE_HELPER_NICE);
  const settings: ServiceSettings = { options: options as GatehouseOptions, port, host, nodeEnv, dataDir, helperThreadNice, warnings };
  if (env.WEB_ROOT !== undefined) settings.webRoot = env.WEB_ROOT.trim() === "" ? "" : resolve(env.WEB_ROOT.trim());
  if (nodeEnv === "production") {
    if (process.platform === "linux" && !env.GLIBC_TUNABLES?.includes("glibc.malloc.mmap_threshold")) {
      warnings.push(
        "started without the launcher (server/bin/gatehouse): password hashes run about 20% slower without its GLIBC_TUNABLES (README, Deployment)",
      );
    }
    if (!env.GATEHOUSE_SECRET && !options.secret) {
      throw new ConfigError("GATEHOUSE_SECRET is required when NODE_ENV=production (32 or more characters)");
    }
  } else if (!options.secret) {
    settings.fallbackSecret = developmentSecret(dataDir, opts.writeSecret ?? true);
    warnings.push(
      `GATEHOUSE_SECRET is not set: using the development secret kept in ${join(dataDir, "secret")}. Set GATEHOUSE_SECRET in production.`,
    );
  }
  return settings;
}

const CREATE_ADMIN_FLAGS = { email: "GATEHOUSE_ADMIN_EMAIL", password: "GATEHOUSE_ADMIN_PASSWORD", name: "GATEHOUSE_ADMIN_NAME" };
type CreateAdminFlag = keyof typeof CREATE_ADMIN_FLAGS;

/**
 * The input of `gatehouse create-admin`: `--email`, `--password` and `--name` (as `--flag value` or `--flag=value`),
 * each falling back to GATEHOUSE_ADMIN_EMAIL, GATEHOUSE_ADMIN_PASSWORD and GATEHOUSE_ADMIN_NAME. The environment
 * keeps the password out of the process list and the shell history.
 */
export function loadCreateAdminInput(args: readonly string[], env: Env = process.env): Partial<Record<CreateAdminFlag, string>> {
  const input: Partial<Record<CreateAdminFlag, string>> = {};
  for (let i = 0; i < args.length; i++) {
    const match = /^--(email|password|name)(?:=(.*))?$/s.exec(args[i]!);
    if (!match) throw new ConfigError(`create-admin: unknown argument "${args[i]}" (use --email, --password, --name)`);
    const value = match[2] ?? args[++i];
    if (value === undefined) throw new ConfigError(`create-admin: --${match[1]} needs a value`);
    input[match[1] as CreateAdminFlag] = value;
  }
  for (const [flag, variable] of Object.entries(CREATE_ADMIN_FLAGS) as [CreateAdminFlag, string][]) {
    if (input[flag] === undefined && env[variable]) input[flag] = env[variable];
  }
  if (!input.email) throw new ConfigError("create-admin: --email (or GATEHOUSE_ADMIN_EMAIL) is required");
  return input;
}

/** METRICS_ENABLED, METRICS_TOKEN, METRICS_PORT and METRICS_HOST (options.metrics), when any is set. */
function metricsFromEnv(env: Env): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  const enabled = env.METRICS_ENABLED?.trim().toLowerCase();
  if (enabled) {
    if (!["true", "1", "false", "0"].includes(enabled)) {
      throw new ConfigError(`METRICS_ENABLED must be true or false (got "${env.METRICS_ENABLED}")`);
    }
    out.enabled = enabled === "true" || enabled === "1";
  }
  if (env.METRICS_TOKEN?.trim()) out.token = env.METRICS_TOKEN.trim();
  if (env.METRICS_PORT?.trim()) {
    const port = Number(env.METRICS_PORT);
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      throw new ConfigError(`METRICS_PORT must be an integer from 0 to 65535 (got "${env.METRICS_PORT}")`);
    }
    out.port = port;
  }
  if (env.METRICS_HOST?.trim()) out.host = env.METRICS_HOST.trim();
  return Object.keys(out).length ? out : undefined;
}

function readConfigFile(path: string | undefined): Record<string, unknown> {
  if (!path) return {};
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new ConfigError(`GATEHOUSE_CONFIG: cannot read ${path}: ${(error as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`GATEHOUSE_CONFIG: ${path} is not valid JSON: ${(error as Error).message}`);
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    throw new ConfigError(`GATEHOUSE_CONFIG: ${path} must hold a JSON object`);
  }
  return value as Record<string, unknown>;
}

function parsePort(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === "") return 3000;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`PORT must be an integer from 0 to 65535 (got "${raw}")`);
  }
  return port;
}

function requireUrl(name: string, raw: string): string {
  try {
    const url = new URL(raw);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("not http(s)");
    return raw.replace(/\/+$/, "");
  } catch {
    throw new ConfigError(`${name} must be an http:// or https:// URL (got "${raw}")`);
  }
}

function requireDatabaseUrl(raw: string): string {
  if (/^sqlite:\/\/.+/.test(raw) || raw === "sqlite::memory:" || /^postgres(ql)?:\/\/.+/.test(raw)) return raw;
  throw new ConfigError(`DATABASE_URL must be sqlite://PATH, sqlite::memory: or postgres://... (got "${raw}")`);
}

function developmentSecret(dataDir: string, write: boolean): string {
  const file = join(dataDir, "secret");
  if (existsSync(file)) {
    const existing = readFileSync(file, "utf8").trim();
    if (existing.length >= 32) return existing;
  }
  if (!write) return randomBytes(32).toString("base64url");
  mkdirSync(dirname(file), { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(file, secret + "\n", { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}
