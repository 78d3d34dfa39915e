import BetterSqlite3 from "better-sqlite3";
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, type QueryResult, type SqliteDatabase, type SqliteStatement } from "kysely";
import pg from "pg";
import type { Database } from "./schema.js";
import { runPrecompiledAsNamed } from "./precompiled.js";
import { startCheckpointer, WAL_RESTART_BYTES } from "./sqlite-checkpointer.js";
import { registerBatchedWrite, sqliteWriteBatcher } from "./sqlite-write-batch.js";

export type Dialect = "sqlite" | "postgres";

export interface StorageLogger {
  warn(obj: object, msg: string): void;
}

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: Dialect;
  /** The PostgreSQL schema in use, when one was named. */
  schema?: string | undefined;
  /** A short description for logs, without credentials. */
  describe: string;
  /**
   * Runs a hot read as a named prepared statement (PostgreSQL plans it once per connection instead of on every
   * call); on SQLite a statement prepared once, run without the query builder's driver.
   */
  preparedQuery?: PreparedQuery;
  /**
   * The connection pool now, for metrics (PostgreSQL): connections open, idle, queries waiting for one, and the
   * pool's size. SQLite has no pool (one connection in the process, used synchronously), so no such reading.
   */
  poolStats?(): { total: number; idle: number; waiting: number; max: number };
  close(): Promise<void>;
}

/**
 * Runs a hot query as a prepared statement (named, on PostgreSQL) and answers its rows as arrays, the columns in
 * the order the statement selects them: no object with a key per column is built for a row read on every request.
 */
export type PreparedQuery = (name: string, sql: string, params: unknown[]) => Promise<unknown[][]>;

export interface DatabaseSettings {
  url: string;
  poolSize?: number;
  schema?: string | undefined;
}

/** Parses sqlite://PATH (relative: sqlite://./x.db, absolute: sqlite:///var/x.db) and sqlite::memory:. */
export function sqlitePathOf(url: string): string {
  if (url === "sqlite::memory:" || url === "sqlite://:memory:") return ":memory:";
  const path = url.replace(/^sqlite:\/\//, "");
  if (!path) throw new Error("DATABASE_URL: sqlite:// needs a path");
  return path;
}

export function openDatabase(settings: DatabaseSettings, logger?: StorageLogger): DatabaseHandle {
  if (settings.url.startsWith("sqlite:")) return openSqlite(sqlitePathOf(settings.url));
  if (/^postgres(ql)?:\/\//.test(settings.url)) return openPostgres(settings, logger);
  throw new Error(`Unsupported DATABASE_URL scheme: ${settings.url.split(":")[0]}`);
}

function openSqlite(path: string): DatabaseHandle {
  if (path !== ":memory:") mkdirSync(dirname(resolve(path)), { recursive: true });
  const raw = new BetterSqlite3(path);
  raw.pragma("journal_mode = WAL");
  raw.pragma("synchronous = NORMAL");
  raw.pragma("foreign_keys = ON");
  raw.pragma("busy_timeout = 5000");
  // A file database checkpoints its WAL from a worker thread (sqlite-checkpointer.ts), never inside a request.
  const checkpointer = path === ":memory:" ? null : startCheckpointer(path);
  if (checkpointer) {
    raw.pragma("wal_autocheckpoint = 0");
    // When the WAL starts over, its file is cut back to this (it would keep its largest size otherwise).
    raw.pragma(`journal_size_limit = ${WAL_RESTART_BYTES}`);
  }
  const statements = cachingStatements(raw);
  const hotStatements = new Map<string, BetterSqlite3.Statement>();
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: statements }) });
  const prepare = (sql: string) => statements.prepare(sql) as unknown as BetterSqlite3.Statement;
  // Hot writes of requests answered in the same turn of the event loop commit together (sqlite-write-batch.ts).
  registerBatchedWrite(db, sqliteWriteBatcher(raw, db, prepare));
  // The hot statements (precompiled.ts `named`) run at once when no transaction is open on the connection: one
  // statement on its own is its own transaction, as Kysely would run it, without the driver's queue and promises
  // (a third of a token read's time). While another request's transaction is open they wait for it through Kysely,
  // so they never see its writes before it commits.
  runPrecompiledAsNamed(db, (_name, sql, parameters) => {
    if (raw.inTransaction) return db.executeQuery(CompiledQuery.raw(sql, parameters as unknown[]));
    try {
      const statement = prepare(sql);
      if (statement.reader) return Promise.resolve({ rows: statement.all(parameters as unknown[]) } as QueryResult<unknown>);
      const { changes, lastInsertRowid } = statement.run(parameters as unknown[]);
      return Promise.resolve({ rows: [], numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid) });
    } catch (error) {
      return Promise.reject(error);
    }
  });
  return {
    db,
    dialect: "sqlite",
    // The hot read goes to better-sqlite3 directly: Kysely's driver costs more than the read itself. It runs
    // on the one connection, so during another request's open transaction it reads that transaction's
    // writes a little early; it is a single-row read of a session, never part of a write.
    preparedQuery: async (_name, sql, params) => {
      // Statements of their own (raw mode: rows as arrays), apart from the cache Kysely reads objects from.
      let statement = hotStatements.get(sql);
      if (!statement) {
        statement = raw.prepare(sql).raw(true);
        hotStatements.set(sql, statement);
      }
      return statement.all(...params) as unknown[][];
    },
    describe: `sqlite:${path}`,
    close: async () => {
      await checkpointer?.stop();
      await db.destroy();
    },
  };
}

/**
 * Kysely prepares a statement for every query; preparing costs more than running a primary-key select.
 * Statements are cached by their SQL text (the text holds no values: they are bound parameters).
 */
function cachingStatements(raw: BetterSqlite3.Database, limit = 512): SqliteDatabase {
  const cache = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => raw.close(),
    prepare(sql: string): SqliteStatement {
      let statement = cache.get(sql);
      if (!statement) {
        statement = raw.prepare(sql);
        if (cache.size >= limit) cache.delete(cache.keys().next().value!);
        cache.set(sql, statement);
      }
      return statement as unknown as SqliteStatement;
    },
  };
}

function openPostgres(settings: DatabaseSettings, logger?: StorageLogger): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString: settings.url,
    max: settings.poolSize ?? 10,
    // Connections once opened stay open: a fresh one costs a backend start, a login and cold catalog caches
    // (several milliseconds on the request that opens it), which showed as a latency tail after quiet spells.
    // One that breaks (a server restart) is dropped and opened again on demand.
    min: settings.poolSize ?? 10,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    // Writes that could hang forever while the server is away fail instead, and are answered with 503.
    query_timeout: 15_000,
    ...(settings.schema ? { options: `-c search_path=${settings.schema}` } : {}),
  });
  // An idle client losing its connection (server restart) must not crash the process; the pool replaces it.
  pool.on("error", (error) => logger?.warn({ err: error.message }, "postgres connection lost"));
  // The pool listens for errors only on idle clients. A client checked out by Kysely (a transaction between two
  // statements, say) whose connection ends would emit "error" with no listener, which crashes the process. Every
  // client keeps a listener of its own: the error fails that client's queries (answered 503) and the pool drops it
  // when it comes back.
  pool.on("connect", (client) => {
    client.on("error", (error) => logger?.warn({ err: error.message }, "postgres connection lost while in use"));
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  runPrecompiledAsNamed(db, async (name, text, values) => {
    const { command, rowCount, rows } = await pool.query({ name, text, values: values as unknown[] });
    // As Kysely's PostgreSQL driver answers.
    const writes = command === "INSERT" || command === "UPDATE" || command === "DELETE" || command === "MERGE";
    return { rows: rows ?? [], numAffectedRows: writes ? BigInt(rowCount ?? 0) : undefined };
  });
  const url = new URL(settings.url);
  return {
    db,
    dialect: "postgres",
    schema: settings.schema,
    preparedQuery: async (name, sql, params) =>
      (await pool.query<unknown[]>({ name, text: sql, values: params, rowMode: "array" })).rows,
    describe: `postgres://${url.host}${url.pathname}${settings.schema ? ` (schema ${settings.schema})` : ""}`,
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max }),
    close: () => db.destroy(),
  };
}

const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now
  "53300", // too_many_connections
  "08000",
  "08003",
  "08006",
  "08001",
  "08004",
  "SQLITE_BUSY",
  "SQLITE_LOCKED",
]);

/** Whether an error means the database is (for now) out of reach, as opposed to a bug or bad data. */
export function isUnavailableError(error: unknown): boolean {
  if (!error || typeof error !== "object") return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && UNAVAILABLE_CODES.has(code)) return true;
  const message = String((error as { message?: unknown }).message ?? "");
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error|terminating connection/i.test(
    message,
  );
}
