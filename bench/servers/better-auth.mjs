// Better Auth 1.7 configured like Gatehouse's defaults, served over node:http. Run by bench/run.mjs as its own process.
// Env: PORT, BA_DATABASE (sqlite://PATH or postgres://...), BA_COOKIE_CACHE (1 = on), BA_SECRET, BA_POOL_SIZE.
import { createServer } from "node:http";
import Database from "better-sqlite3";
import pg from "pg";
import { betterAuth } from "better-auth";
import { getMigrations } from "better-auth/db/migration";
import { toNodeHandler } from "better-auth/node";

const port = Number(process.env.PORT ?? 3100);
const url = process.env.BA_DATABASE ?? "sqlite://./better-auth.db";

let database;
if (url.startsWith("sqlite://")) {
  // The same pragmas Gatehouse sets on its SQLite connection.
  database = new Database(url.slice("sqlite://".length));
  database.pragma("journal_mode = WAL");
  database.pragma("synchronous = NORMAL");
  database.pragma("foreign_keys = ON");
  database.pragma("busy_timeout = 5000");
} else {
  database = new pg.Pool({ connectionString: url, max: Number(process.env.BA_POOL_SIZE ?? 10) });
}

const options = {
  database,
  secret: process.env.BA_SECRET ?? "bench-secret-bench-secret-bench-secret",
  baseURL: `http://127.0.0.1:${port}`,
  emailAndPassword: { enabled: true },
  session: {
    expiresIn: 604_800,
    updateAge: 86_400,
    cookieCache: { enabled: process.env.BA_COOKIE_CACHE === "1", maxAge: 300 },
  },
  rateLimit: { enabled: false },
  telemetry: { enabled: false },
  logger: { disabled: true },
};

const { runMigrations } = await getMigrations(options);
await runMigrations();

const auth = betterAuth(options);
const server = createServer(toNodeHandler(auth));
server.listen(port, "127.0.0.1", () => process.send?.({ ready: true, port }));
const stop = () => server.close(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
