// The ceiling: a bare node:http server that answers each request with one primary-key select, as a session
// lookup would: on SQLite (better-sqlite3, one prepared statement) or, with CEILING_PG set, on PostgreSQL
// (pg, a pool of 10 and one named prepared statement). Env: PORT, CEILING_DB (file path), CEILING_PG (URL).
import { createServer } from "node:http";
import { randomBytes } from "node:crypto";
import Database from "better-sqlite3";
import pg from "pg";

const port = Number(process.env.PORT ?? 3200);
const rows = Array.from({ length: 1000 }, (_, i) => [
  randomBytes(24).toString("base64url"),
  randomBytes(16).toString("hex"),
  "user" + i,
  Date.now() + 604_800_000,
  Date.now(),
  Date.now(),
  "127.0.0.1",
  "bench",
]);
// Each request reads another of the 1,000 sessions, as requests from many browsers would.
let next = 0;
const nextToken = () => rows[next++ % rows.length][0];
const TABLE = `CREATE TABLE IF NOT EXISTS session (
  token TEXT PRIMARY KEY, id TEXT NOT NULL, userId TEXT NOT NULL, expiresAt BIGINT NOT NULL,
  createdAt BIGINT NOT NULL, updatedAt BIGINT NOT NULL, ipAddress TEXT, userAgent TEXT)`;

let lookup;
if (process.env.CEILING_PG) {
  const pool = new pg.Pool({ connectionString: process.env.CEILING_PG, max: 10 });
  await pool.query(TABLE);
  for (const row of rows) {
    await pool.query("INSERT INTO session VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING", row);
  }
  lookup = async () =>
    (await pool.query({ name: "ceiling_lookup", text: "SELECT * FROM session WHERE token = $1", values: [nextToken()] })).rows[0];
} else {
  const db = new Database(process.env.CEILING_DB ?? "./ceiling.db");
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.exec(TABLE);
  const insert = db.prepare("INSERT OR REPLACE INTO session VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
  db.transaction(() => rows.forEach((row) => insert.run(...row)))();
  const select = db.prepare("SELECT * FROM session WHERE token = ?");
  lookup = async () => select.get(nextToken());
}

const server = createServer((req, res) => {
  lookup().then((row) => {
    const body = JSON.stringify(row ?? null);
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
    res.end(body);
  });
});
server.listen(port, "127.0.0.1", () => process.send?.({ ready: true, port }));
const stop = () => server.close(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
