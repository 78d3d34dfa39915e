import argon2 from "argon2";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkCurrentPassword } from "../src/credentials/credential-account.js";
import { scryptReference } from "../src/credentials/password.js";
import { openDatabase } from "../src/storage/database.js";
import { databaseWarnings } from "../src/storage/schema-introspection.js";
import { buildCli, runCli, type CliBuild } from "./helpers/cli.js";
import { createTestDatabase, DIALECTS, postgresAutovacuum, refuseInserts, type TestDatabase } from "./helpers/databases.js";
import { TestClient, uniqueEmail } from "./helpers/http-client.js";
import { startTestServer, TEST_SECRET, type TestServer } from "./helpers/server.js";
import { djangoHash, FIREBASE_SAMPLE } from "./helpers/password-vectors.js";

const bcrypt = createRequire(import.meta.url)("bcrypt") as { hashSync(password: string, rounds: number): string };

const SCRYPT_SHAPE = /^[0-9a-f]{32}:[0-9a-f]{128}$/;
const FIREBASE_FLAGS = [
  "--firebase-signer-key",
  FIREBASE_SAMPLE.config.signerKey,
  "--firebase-salt-separator",
  FIREBASE_SAMPLE.config.saltSeparator,
  "--firebase-rounds",
  String(FIREBASE_SAMPLE.config.rounds),
  "--firebase-mem-cost",
  String(FIREBASE_SAMPLE.config.memCost),
];

let cli: CliBuild;
const folders: string[] = [];
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), "gatehouse-import-"));
  folders.push(dir);
  return dir;
};

beforeAll(() => {
  cli = buildCli();
});
afterAll(() => {
  cli?.remove();
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

/** The CLI's environment for a test database (its PostgreSQL schema given in a GATEHOUSE_CONFIG file). */
function cliEnv(database: TestDatabase, dir: string): Record<string, string> {
  const env: Record<string, string> = { DATABASE_URL: database.url, GATEHOUSE_SECRET: TEST_SECRET, LOG_LEVEL: "error", GATEHOUSE_DATA_DIR: dir };
  if (database.schema) {
    const config = join(dir, "gatehouse.json");
    writeFileSync(config, JSON.stringify({ database: { schema: database.schema } }));
    env.GATEHOUSE_CONFIG = config;
  }
  return env;
}

interface LogEntry {
  msg: string;
  /** The level's name (the service's logger writes names, not pino's numbers). */
  level: string;
  database?: string;
}

/** Entries logged as a warning or worse. */
const warningsOf = (entries: readonly LogEntry[]) =>
  entries.filter((e) => e.level === "warn" || e.level === "error" || e.level === "fatal").map((e) => e.msg);

/**
 * Runs `gatehouse serve` in `cwd` (on a free port, without the web app) until it logs that it listens, stops it and
 * waits for it to exit: its log, one JSON entry a line.
 */
async function serveUntilListening(cwd: string, env: Record<string, string>, timeoutMs: number): Promise<LogEntry[]> {
  const child = spawn(process.execPath, [cli.main, "serve"], {
    cwd,
    env: { PATH: process.env.PATH, ...env, PORT: "0", HOST: "127.0.0.1", WEB_ROOT: "" },
  });
  let log = "";
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`serve did not start: ${log}`)), timeoutMs);
      child.stdout.on("data", (chunk: Buffer) => {
        log += chunk.toString();
        if (log.includes("gatehouse listening")) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.on("exit", (code) => reject(new Error(`serve exited with ${code}: ${log}`)));
    });
  } finally {
    child.kill("SIGTERM");
    await new Promise((resolve) => (child.exitCode === null ? child.once("exit", resolve) : resolve(null)));
  }
  return log.trim().split("\n").map((line) => JSON.parse(line) as LogEntry);
}

interface ImportedFixture {
  email: string;
  password: string;
  format: string;
  username?: string;
}

describe.each(DIALECTS)("#12.2: gatehouse import on %s", (dialect) => {
  let server: TestServer;
  let dir: string;
  let env: Record<string, string>;
  let file: string;
  const users: ImportedFixture[] = [];
  const google = `g-${Date.now()}-${Math.random().toString(36).slice(2)}`;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    dir = folder();
    env = cliEnv(server.database, dir);
    const fixture = (format: string, password: string, extra: Partial<ImportedFixture> = {}) => {
      const user = { email: uniqueEmail(format), password, format, ...extra };
      users.push(user);
      return user;
    };
    const bcryptUser = fixture("bcrypt", "bcrypt password 1");
    const argonUser = fixture("argon2", "argon2 pässword", { username: `argon_${Date.now().toString(36)}` });
    const djangoUser = fixture("django", "django password");
    const firebaseUser = fixture("firebase", FIREBASE_SAMPLE.password);
    const scryptUser = fixture("scrypt", "scrypt password");
    const lines = [
      /* 1 */ { email: bcryptUser.email.toUpperCase(), name: "Bee Crypt", emailVerified: true, password: bcrypt.hashSync(bcryptUser.password, 4), accounts: [{ providerId: "google", accountId: google }] },
      /* 2 */ {
        email: argonUser.email,
        name: "Argon",
        username: argonUser.username!.toUpperCase(),
        createdAt: "2021-03-04T05:06:07.000Z",
        password: await argon2.hash(argonUser.password, { type: argon2.argon2id, memoryCost: 4096, timeCost: 2, parallelism: 1 }),
      },
      /* 3 */ { email: djangoUser.email, name: "Django", createdAt: 1600000000000, password: djangoHash(djangoUser.password, "pepper", 5000) },
      /* 4 */ { email: firebaseUser.email, password: FIREBASE_SAMPLE.passwordHash, passwordSalt: FIREBASE_SAMPLE.salt },
      /* 5 */ { email: scryptUser.email, name: "Scrypt", password: await scryptReference(scryptUser.password, "0123456789abcdef0123456789abcdef") },
      /* 6 */ { email: uniqueEmail("social"), name: "Only Social", emailVerified: true, accounts: [{ providerId: "github", accountId: `gh-${google}` }] },
      /* 7 */ "{not json",
      /* 8 */ { email: "not-an-address", password: "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW" },
      /* 9 */ { email: uniqueEmail("md5"), password: "5f4dcc3b5aa765d61d8327deb882cf99" },
      /* 10 */ { email: uniqueEmail("typo"), emial: "x@example.com" },
      /* 11 */ { email: bcryptUser.email, name: "Same address again", password: bcrypt.hashSync("other", 4) },
      /* 12 */ { email: uniqueEmail("linked"), accounts: [{ providerId: "google", accountId: google }] },
      /* 13 */ "",
      /* 14 */ { email: uniqueEmail("fb"), password: "c2hvcnQ=", passwordSalt: FIREBASE_SAMPLE.salt },
    ];
    file = join(dir, "users.jsonl");
    writeFileSync(file, lines.map((line) => (typeof line === "string" ? line : JSON.stringify(line))).join("\n") + "\n");
  });
  afterAll(async () => server?.close());

  const REJECTED = [
    /^line 7: rejected: not valid JSON/m,
    /^line 8: rejected: email: not a valid email address$/m,
    /^line 9: rejected: password: unknown hash format/m,
    /^line 10: rejected: Unrecognized key: "emial"$/m,
    /^line 12: rejected: accounts: google account g-\S+ is already linked to another user$/m,
    /^line 14: rejected: password: the Firebase password hash differs in length from the signer key/m,
  ];

  const stored = async (email: string) => {
    const user = await server.gatehouse.runtime.stores.users.findUserByEmail(email.toLowerCase());
    if (!user) return null;
    const accounts = await server.gatehouse.runtime.stores.accounts.listUserAccounts(user.id);
    return { user, accounts, password: accounts.find((a) => a.providerId === "credential")?.password ?? null };
  };

  it("#12.2: a dry run checks every line, reports the rejected ones by number and writes nothing", async () => {
    const run = await runCli(cli, ["import", file, "--dry-run", ...FIREBASE_FLAGS], { cwd: dir, env });
    expect(run.stdout).toContain(`gatehouse: database ${dialect === "sqlite" ? "sqlite:" : "postgres://"}`);
    expect(run.stdout).toMatch(/dry run, nothing written: 6 users would be imported \(13 lines: 1 skipped as already there, 6 rejected\)/);
    for (const pattern of REJECTED) expect(run.stderr).toMatch(pattern);
    expect(run.stderr.trim().split("\n")).toHaveLength(6);
    expect(run.status).toBe(3);
    for (const user of users) expect(await stored(user.email)).toBeNull();
  });

  it("#12.2: imports the good lines with their accounts, reports the rest, and a second run creates nothing", async () => {
    const run = await runCli(cli, ["import", file, ...FIREBASE_FLAGS], { cwd: dir, env });
    expect(run.stdout).toMatch(/imported 6 users \(13 lines: 1 skipped as already there, 6 rejected\) in [\d.]+ s, [\d,]+ users\/s/);
    for (const pattern of REJECTED) expect(run.stderr).toMatch(pattern);
    expect(run.status).toBe(3);

    const bee = await stored(users[0]!.email);
    expect(bee?.user).toMatchObject({ email: users[0]!.email.toLowerCase(), name: "Bee Crypt", emailVerified: true, role: "user" });
    expect(bee?.password).toMatch(/^\$2b\$04\$/);
    expect(bee?.accounts.map((a) => `${a.providerId}:${a.accountId}`).sort()).toEqual([`credential:${bee!.user.id}`, `google:${google}`]);
    const argon = await stored(users[1]!.email);
    expect(argon?.user).toMatchObject({ username: users[1]!.username, displayUsername: users[1]!.username!.toUpperCase() });
    expect(argon?.user.createdAt.toISOString()).toBe("2021-03-04T05:06:07.000Z");
    expect((await stored(users[2]!.email))?.user.createdAt.getTime()).toBe(1600000000000);
    const firebase = await stored(users[3]!.email);
    expect(firebase?.user.name).toBe(users[3]!.email.split("@")[0]); // no name: derived from the address
    expect(firebase?.password).toMatch(/^\$firebase-scrypt\$m=14,r=8\$/);

    // --report: the lines not imported, as JSON Lines, instead of stderr lines.
    const report = join(dir, "report.jsonl");
    const again = await runCli(cli, ["import", file, "--report", report, ...FIREBASE_FLAGS], { cwd: dir, env });
    expect(again.stdout).toMatch(/imported 0 users \(13 lines: 7 skipped as already there, 6 rejected\)/);
    expect(again.stderr).toBe("");
    expect(again.status).toBe(3);
    const reported = readFileSync(report, "utf8").trim().split("\n").map((line) => JSON.parse(line));
    expect(reported.filter((r) => r.status === "rejected").map((r) => r.line)).toEqual([7, 8, 9, 10, 12, 14]);
    expect(reported.filter((r) => r.status === "skipped").map((r) => r.line)).toEqual([1, 2, 3, 4, 5, 6, 11]);
    expect((await stored(users[0]!.email))?.user.id).toBe(bee?.user.id);
  });

  it("#12.2: each imported format signs in over HTTP and is replaced by scrypt in that request; a wrong password is refused with 401", async () => {
    for (const user of users) {
      const before = await stored(user.email);
      expect(before?.password, user.format).toBeTruthy();
      const client = new TestClient(server.base);
      const signIn = (password: string) =>
        user.username
          ? client.post("/sign-in/username", { username: user.username, password })
          : client.post("/sign-in/email", { email: user.email, password });

      expect((await signIn(user.password + "x")).status, user.format).toBe(401);
      expect((await stored(user.email))?.password).toBe(before!.password);

      const ok = await signIn(user.password);
      expect(ok.status, `${user.format}: ${ok.text}`).toBe(200);
      const after = (await stored(user.email))!.password!;
      if (user.format === "scrypt") {
        expect(after).toBe(before!.password); // already Gatehouse's own: left as it is
      } else {
        expect(after, user.format).toMatch(SCRYPT_SHAPE);
        expect(await server.gatehouse.runtime.hasher.verify(after, user.password)).toBe(true);
      }
      // The new hash signs in too; the old password stays the password.
      expect((await signIn(user.password)).status).toBe(200);
      expect((await signIn("wrong password")).status).toBe(401);
    }
  });

  it("#12.2: a user the database refuses mid-batch is rejected with the reason and leaves no half user; the rest of the batch is written", async () => {
    const db = server.gatehouse.database.db;
    // A refusal only the database knows of (as a provider identity linked by a racing request would be).
    const allowAccounts = await refuseInserts(db, dialect, {
      name: "import_boom",
      table: "account",
      when: sql`new."accountId" = 'boom'`,
      message: "boom refused",
    });
    try {
      const emails = [uniqueEmail("before"), uniqueEmail("boom"), uniqueEmail("after")];
      const batchFile = join(dir, "boom.jsonl");
      writeFileSync(
        batchFile,
        [
          { email: emails[0], password: djangoHash("p", "s", 1) },
          { email: emails[1], password: djangoHash("p", "s", 1), accounts: [{ providerId: "example", accountId: "boom" }] },
          { email: emails[2], accounts: [{ providerId: "example", accountId: `ok-${google}` }] },
        ]
          .map((line) => JSON.stringify(line))
          .join("\n"),
      );
      const run = await runCli(cli, ["import", batchFile], { cwd: dir, env });
      expect(run.stdout).toMatch(/imported 2 users \(3 lines: 0 skipped as already there, 1 rejected\)/);
      expect(run.stderr).toMatch(/^line 2: rejected: could not be written: .*boom refused/m);
      expect(run.status).toBe(3);
      expect((await stored(emails[0]!))?.accounts).toHaveLength(1);
      expect(await stored(emails[1]!)).toBeNull();
      expect((await stored(emails[2]!))?.accounts.map((a) => a.providerId)).toEqual(["example"]);
    } finally {
      await allowAccounts();
    }
  });

  it("#12.2: a password check of a signed-in user (delete-user, change-password's check) rehashes an imported hash, but only the hash it verified", async () => {
    const email = uniqueEmail("check");
    const importFile = join(dir, "one.jsonl");
    writeFileSync(importFile, JSON.stringify({ email, password: djangoHash("check password", "salt", 1000) }) + "\n");
    expect((await runCli(cli, ["import", importFile], { cwd: dir, env })).status).toBe(0);
    const runtime = server.gatehouse.runtime;
    const user = (await runtime.stores.users.findUserByEmail(email))!;
    const imported = (await runtime.stores.accounts.findCredentialAccount(user.id))!.password!;
    await checkCurrentPassword(runtime, user.id, "check password");
    const rehashed = (await runtime.stores.accounts.findCredentialAccount(user.id))!.password!;
    expect(rehashed).toMatch(SCRYPT_SHAPE);
    // The conditional update: a hash that changed since it was verified is not overwritten.
    expect(await runtime.stores.accounts.replaceCredentialPassword(user.id, imported, "x:y", runtime.now())).toBe(false);
    expect((await runtime.stores.accounts.findCredentialAccount(user.id))!.password).toBe(rehashed);
  });
});

describe("#14: the CLI prints its database and creates none without --create", () => {
  it("#14: create-admin, migrate and import run from another folder refuse the missing database and leave nothing behind", async () => {
    const elsewhere = folder();
    const users = join(elsewhere, "users.jsonl");
    writeFileSync(users, JSON.stringify({ email: uniqueEmail() }) + "\n");
    for (const args of [["create-admin", "--email", uniqueEmail(), "--password", "long enough password"], ["migrate"], ["import", users]]) {
      const run = await runCli(cli, args, { cwd: elsewhere, env: {} });
      expect(run.stdout, args[0]).toBe(`gatehouse: database sqlite:${join(elsewhere, "data", "gatehouse.db")}\n`);
      expect(run.stderr).toMatch(/there is no database at .*data\/gatehouse\.db.*--create/);
      expect(run.status).toBe(1);
      // No database file, no data folder, no development secret.
      expect(existsSync(join(elsewhere, "data"))).toBe(false);
    }
  });

  it("#14: --create makes the database; the next command finds it without", async () => {
    const here = folder();
    const created = await runCli(cli, ["migrate", "--create"], { cwd: here, env: {} });
    expect(created.stdout).toContain(`gatehouse: created a new database (--create): sqlite:${join(here, "data", "gatehouse.db")}`);
    expect(created.status).toBe(0);
    const admin = await runCli(cli, ["create-admin", "--email", "root@example.com", "--password", "long enough password"], { cwd: here, env: {} });
    expect(admin.stdout).toMatch(/database sqlite:.*\n.*created administrator root@example.com/);
    expect(admin.status).toBe(0);
  });

  it("#14: on PostgreSQL, a schema without Gatehouse's tables is refused without --create", async () => {
    const database = await createTestDatabase("postgres");
    try {
      const dir = folder();
      const env = cliEnv(database, dir);
      const file = join(dir, "users.jsonl");
      writeFileSync(file, JSON.stringify({ email: uniqueEmail(), name: "New" }) + "\n");
      const refused = await runCli(cli, ["import", file], { cwd: dir, env });
      expect(refused.stdout).toContain(`gatehouse: database postgres://127.0.0.1:5432/postgres (schema ${database.schema})`);
      expect(refused.stderr).toMatch(/has no Gatehouse tables.*--create/);
      expect(refused.status).toBe(1);
      const created = await runCli(cli, ["import", file, "--create"], { cwd: dir, env });
      expect(created.stdout).toMatch(/created a new database[\s\S]*imported 1 users/);
      expect(created.status).toBe(0);
    } finally {
      await database.drop();
    }
  });

  it("#14: serve creates ./data/gatehouse.db on first run and says so in its log", async () => {
    const here = folder();
    const entries = await serveUntilListening(here, {}, 30_000);
    const file = join(here, "data", "gatehouse.db");
    expect(entries.find((e) => e.msg === "created a new database")?.database).toBe(`sqlite:${file}`);
    expect(entries.find((e) => e.msg.startsWith("gatehouse listening"))?.database).toBe(`sqlite:${file}`);
    expect(existsSync(file)).toBe(true);
  });

  it("serve on a fresh PostgreSQL database starts its background work only once the migrations made its tables", async () => {
    const database = await createTestDatabase("postgres");
    const dir = folder();
    let entries: LogEntry[];
    try {
      // BASE_URL set: serve warns when it is not.
      entries = await serveUntilListening(dir, { ...cliEnv(database, dir), LOG_LEVEL: "debug", BASE_URL: "http://127.0.0.1:3000" }, 60_000);
    } finally {
      await database.drop();
    }
    expect(entries.some((e) => e.level === "info" && e.msg === "migrations applied")).toBe(true);
    // The webhook dispatcher's first pass came after the migrations: no pass failed on a missing table, nothing
    // was logged as an error or a warning but the server's autovacuum when it is off (this project's CI machines
    // turn it off).
    expect(entries.filter((e) => e.msg === "webhook dispatcher pass failed")).toEqual([]);
    expect(warningsOf(entries)).toEqual((await postgresAutovacuum()) === "off" ? [expect.stringMatching(/^PostgreSQL's autovacuum is off/)] : []);
  });

  it("databaseWarnings names PostgreSQL's autovacuum exactly when it is off, and nothing on SQLite", async () => {
    for (const dialect of DIALECTS) {
      const database = await createTestDatabase(dialect);
      const handle = openDatabase({ url: database.url, schema: database.schema });
      try {
        const warnings = await databaseWarnings(handle);
        if (dialect === "sqlite") expect(warnings).toEqual([]);
        else expect(warnings.length).toBe((await postgresAutovacuum()) === "off" ? 1 : 0);
      } finally {
        await handle.close();
        await database.drop();
      }
    }
  });
});
