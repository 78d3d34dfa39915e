// The import part: `gatehouse import` of 100,000 users from a JSON Lines file, the same made-up users as the admin
// part (lib/admin-users.mjs), each with a password hash in one of the formats the import accepts, copied as it is.
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { makeUsers } from "./admin-users.mjs";

/** Firebase's documented sample project parameters (any would do: the import only copies hashes). */
export const FIREBASE_FLAGS = [
  "--firebase-signer-key",
  "jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==",
  "--firebase-salt-separator",
  "Bw==",
  "--firebase-rounds",
  "8",
  "--firebase-mem-cost",
  "14",
];

const BCRYPT_ALPHABET = "./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const bcryptChars = (n) => Array.from(randomBytes(n), (b) => BCRYPT_ALPHABET[b & 63]).join("");
const b64 = (bytes) => randomBytes(bytes).toString("base64");
const b64bare = (bytes) => b64(bytes).replace(/=+$/, "");
const hex = (bytes) => randomBytes(bytes).toString("hex");

/**
 * Hashes of the right shape for each format, with random contents: the import checks shapes and copies hashes, it
 * computes none, so made-up ones cost it the same as real ones (which would take hours to compute for 100,000).
 */
const FORMATS = [
  ["bcrypt", 0.35, () => ({ password: `$2b$10$${bcryptChars(53)}` })],
  ["argon2id", 0.2, () => ({ password: `$argon2id$v=19$m=19456,t=2,p=1$${b64bare(16)}$${b64bare(32)}` })],
  ["pbkdf2_sha256", 0.2, () => ({ password: `pbkdf2_sha256$600000$${hex(11)}$${b64(32)}` })],
  ["firebase-scrypt", 0.1, () => ({ password: b64(64), passwordSalt: b64(10) })],
  ["scrypt", 0.15, () => ({ password: `${hex(16)}:${hex(64)}` })],
];

/**
 * Writes `count` users as JSON Lines: the admin part's users (names, distinct addresses, dates, 80% verified, 25% with
 * a username, 30% with an image), hash formats in the shares above, and 10% with a Google account. Answers how many
 * of each format and how many provider accounts.
 */
export function writeImportFile(path, count) {
  const users = makeUsers(count);
  const formats = Object.fromEntries(FORMATS.map(([name]) => [name, 0]));
  let providerAccounts = 0;
  const lines = users.map((u, i) => {
    const share = (i % 100) / 100;
    let cumulative = 0;
    const [format, , make] = FORMATS.find(([, weight]) => (cumulative += weight) > share) ?? FORMATS[0];
    formats[format]++;
    const line = {
      email: u.email,
      name: u.name,
      emailVerified: u.emailVerified,
      image: u.image,
      createdAt: new Date(u.createdAt).toISOString(),
      ...(u.username ? { username: u.username, displayUsername: u.displayUsername } : {}),
      ...make(),
    };
    if (i % 10 === 3) {
      line.accounts = [{ providerId: "google", accountId: String(100_000_000_000 + i) }];
      providerAccounts++;
    }
    return JSON.stringify(line);
  });
  writeFileSync(path, lines.join("\n") + "\n");
  return { users: count, formats, providerAccounts };
}

const SUMMARY = /imported ([\d,]+) users \(([\d,]+) lines: ([\d,]+) skipped as already there, ([\d,]+) rejected\) in ([\d.]+) s, ([\d,]+) users\/s/;
const int = (s) => Number(s.replaceAll(",", ""));

/** The CLI's summary line, as numbers. */
export function parseImportSummary(stdout) {
  const m = SUMMARY.exec(stdout);
  if (!m) throw new Error(`no import summary in the output: ${stdout.slice(0, 500)}`);
  return { imported: int(m[1]), lines: int(m[2]), skipped: int(m[3]), rejected: int(m[4]), seconds: Number(m[5]), usersPerSecond: int(m[6]) };
}

/** Target (issue #12): at least 5,000 users/s on PostgreSQL with hashes copied as they are. */
export const IMPORT_TARGET = 5000;

export function evaluateImportTargets(results) {
  const pg = results.import?.postgres;
  if (!pg) return [];
  const rate = pg.first?.usersPerSecond ?? null;
  return [{ label: `import ≥ ${IMPORT_TARGET.toLocaleString("en-US")} users/s on PostgreSQL`, database: "postgres", value: rate === null ? "failed" : `${rate.toLocaleString("en-US")} users/s`, pass: rate === null ? false : rate >= IMPORT_TARGET }];
}

const num = (n) => (n === undefined || n === null ? "–" : Math.round(n).toLocaleString("en-US"));

export function renderImportMarkdown(results) {
  const m = results.machine;
  const dbs = [
    ["postgres", "PostgreSQL"],
    ["sqlite", "SQLite"],
  ].filter(([db]) => results.import?.[db]);
  const any = dbs.map(([db]) => results.import[db]).find((d) => d.made);
  const pg = results.import?.postgres?.postgresVersion;
  const made = any?.made;
  const shares = made ? Object.entries(made.formats).map(([name, n]) => `${name} ${num(n)}`).join(", ") : "";
  const rows = dbs.map(([db, label]) => {
    const r = results.import[db];
    if (r.error) return [label, "failed", "–", "–", "–", "–"];
    return [
      label,
      `${num(r.first.imported)} in ${r.first.seconds} s: **${num(r.first.usersPerSecond)} users/s**`,
      `${r.first.wallSeconds} s (${num(r.first.imported / r.first.wallSeconds)} users/s)`,
      `${num(r.second.skipped)} skipped, ${num(r.second.imported)} imported in ${r.second.seconds} s (${num(r.second.skipped / r.second.seconds)} lines/s)`,
      `${num(r.rows.users)} users, ${num(r.rows.accounts)} accounts`,
      `${r.rssPeakMb ?? "–"} MB`,
    ];
  });
  const target = (results.importTargets ?? [])[0];
  return [
    `Run of ${results.date.slice(0, 16).replace("T", " ")} UTC. Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, Node ${m.node}` +
      `${pg ? `, PostgreSQL ${pg}` : ""}; load average ${m.loadAverageAtStart[0]} at the start, ${m.loadAverageAtEnd[0]} at the end. ` +
      `Gatehouse ${results.versions.gatehouse}. ${num(made?.users)} users (${shares}; ${num(made?.providerAccounts)} with a Google account), ` +
      `batches of 1,000, through the launcher \`server/bin/gatehouse import FILE --create\` in a process of its own.`,
    "",
    "| database | import (the CLI's own figure) | whole process (start, migrations, import, exit) | second run of the same file | rows after both runs | CLI peak RSS |",
    "| --- | --- | --- | --- | --- | --- |",
    ...rows.map((cells) => `| ${cells.join(" | ")} |`),
    "",
    target ? `Target: ${target.label}: ${target.pass ? "**PASS**" : "**FAIL**"} (${target.value}).` : "",
  ].join("\n");
}
