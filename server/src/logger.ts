import { pino, type Logger as PinoLogger } from "pino";

/** Structured JSON logs with SPEC.md's levels: debug, info, success, warn, error. */
export type LogLevel = "debug" | "info" | "success" | "warn" | "error" | "silent";

export type Logger = PinoLogger<"success">;

// Secrets never reach a log line, even when an object holding them is logged by mistake.
const REDACT = [
  "password",
  "newPassword",
  "currentPassword",
  "token",
  "secret",
  "*.password",
  "*.newPassword",
  "*.currentPassword",
  "*.token",
  "*.secret",
  "*.accessToken",
  "*.refreshToken",
  "*.idToken",
  "headers.cookie",
  "headers.authorization",
];

export function createLogger(level: LogLevel, destination?: NodeJS.WritableStream): Logger {
  const options = {
    level,
    customLevels: { success: 35 },
    base: { service: "gatehouse" },
    redact: { paths: REDACT, censor: "[redacted]" },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
  };
  return (destination ? pino(options, destination as never) : pino(options)) as Logger;
}
