import { existsSync, readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { ConfigError } from "../config/index.js";
import { firebaseConfigError, type FirebaseHashConfig } from "../credentials/hash-formats.js";
import type { ImportSettings } from "./run-import.js";

const VALUE_FLAGS = [
  "report",
  "batch-size",
  "firebase-options",
  "firebase-signer-key",
  "firebase-salt-separator",
  "firebase-rounds",
  "firebase-mem-cost",
] as const;
type ValueFlag = (typeof VALUE_FLAGS)[number];

export const IMPORT_USAGE = `import FILE [--dry-run] [--report FILE] [--batch-size N] [--create]
          [--firebase-options FILE | --firebase-signer-key B64 --firebase-salt-separator B64
           --firebase-rounds N --firebase-mem-cost N]
            import users from a JSON Lines file (README.md, "From anything else (import)"); exits 0 when every line
            was imported or skipped as already there, 3 when some lines were rejected (the others are written)`;

/**
 * The arguments of `gatehouse import` (`--flag value` or `--flag=value`). The Firebase parameters come from flags or
 * from a JSON file (`--firebase-options`, which keeps the signer key out of the process list): either the names of
 * the Firebase console ({ "base64_signer_key", "base64_salt_separator", "rounds", "mem_cost" }) or
 * { "signerKey", "saltSeparator", "rounds", "memCost" }; flags win over the file.
 */
export function parseImportArgs(args: readonly string[]): ImportSettings {
  let file: string | undefined;
  let dryRun = false;
  const values: Partial<Record<ValueFlag, string>> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--dry-run") {
      dryRun = true;
      continue;
    }
    const match = /^--([a-z-]+)(?:=(.*))?$/s.exec(arg);
    if (match) {
      const flag = match[1] as ValueFlag;
      if (!VALUE_FLAGS.includes(flag)) throw new ConfigError(`import: unknown option "${arg}"`);
      const value = match[2] ?? args[++i];
      if (value === undefined) throw new ConfigError(`import: --${flag} needs a value`);
      values[flag] = value;
      continue;
    }
    if (file !== undefined) throw new ConfigError(`import: one file at a time (got "${file}" and "${arg}")`);
    file = arg;
  }
  if (file === undefined) throw new ConfigError("import: the file to import is missing (gatehouse import users.jsonl)");
  const path = resolve(file);
  if (!existsSync(path) || !statSync(path).isFile()) throw new ConfigError(`import: no file at ${path}`);

  let batchSize = 1000;
  if (values["batch-size"] !== undefined) {
    batchSize = Number(values["batch-size"]);
    if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 10_000) {
      throw new ConfigError(`import: --batch-size must be a whole number from 1 to 10000 (got "${values["batch-size"]}")`);
    }
  }
  return {
    file: path,
    dryRun,
    batchSize,
    report: values.report === undefined ? undefined : resolve(values.report),
    firebase: firebaseOptions(values),
  };
}

function firebaseOptions(values: Partial<Record<ValueFlag, string>>): FirebaseHashConfig | undefined {
  const fromFile: Record<string, unknown> = values["firebase-options"] ? readOptionsFile(values["firebase-options"]) : {};
  const pick = (flag: ValueFlag, ...keys: string[]): unknown => {
    if (values[flag] !== undefined) return values[flag];
    for (const key of keys) if (fromFile[key] !== undefined) return fromFile[key];
    return undefined;
  };
  const raw = {
    signerKey: pick("firebase-signer-key", "signerKey", "base64_signer_key"),
    saltSeparator: pick("firebase-salt-separator", "saltSeparator", "base64_salt_separator"),
    rounds: pick("firebase-rounds", "rounds"),
    memCost: pick("firebase-mem-cost", "memCost", "mem_cost"),
  };
  const given = Object.entries(raw).filter(([, v]) => v !== undefined);
  if (given.length === 0) return undefined;
  if (given.length < 4) {
    const missing = Object.entries(raw)
      .filter(([, v]) => v === undefined)
      .map(([k]) => `--firebase-${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`);
    throw new ConfigError(`import: the Firebase hash parameters are incomplete: ${missing.join(", ")} missing`);
  }
  const config: FirebaseHashConfig = {
    signerKey: String(raw.signerKey).trim(),
    saltSeparator: String(raw.saltSeparator).trim(),
    rounds: Number(raw.rounds),
    memCost: Number(raw.memCost),
  };
  const error = firebaseConfigError(config);
  if (error) throw new ConfigError(`import: ${error}`);
  return config;
}

function readOptionsFile(path: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new ConfigError(`import: cannot read the Firebase options file ${path}: ${(error as Error).message}`);
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    throw new ConfigError(`import: the Firebase options file ${path} must hold a JSON object`);
  }
  return value as Record<string, unknown>;
}
