// The ceiling: a bare node:http server that answers each request with one primary-key select on SQLite
// (better-sqlite3, one prepared statement), as a session lookup would. Env: PORT, CEILING_DB (file path).
import { createServer } from "node:http";
import { randomBytes } from "node:crypto";
import Database from "better-sqlite3";

const port = Number(process.env.PORT ?? 3200);
const db = new Database(process.env.CEILING_DB ?? "./ceiling.db");
db.pragma("journal_mode = WAL");
db.pragma("synchronous = NORMAL");
db.exec(`CREATE TABLE IF NOT EXISTS session (
  token TEXT PRIMARY KEY, id TEXT NOT NULL, userId TEXT NOT NULL, expiresAt INTEGER NOT NULL,
  createdAt INTEGER NOT NULL, updatedAt INTEGER NOT NULL, ipAddress TEXT, userAgent TEXT)`);
const insert = db.prepare("INSERT OR REPLACE INTO session VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
const tokens = [];
db.transaction(() => {
  for (let i = 0; i < 1000; i++) {
    const token = randomBytes(24).toString("base64url");
    tokens.push(token);
    insert.run(token, randomBytes(16).toString("hex"), "user" + i, Date.now() + 604_800_000, Date.now(), Date.now(), "127.0.0.1", "bench");
  }
})();
const select = db.prepare("SELECT * FROM session WHERE token = ?");
const token = tokens[500];

const server = createServer((req, res) => {
  const row = select.get(token);
  const body = JSON.stringify(row ?? null);
  res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  res.end(body);
});
server.listen(port, "127.0.0.1", () => process.send?.({ ready: true, port }));
const stop = () => server.close(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
