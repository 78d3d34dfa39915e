// Gatehouse load benchmark: Gatehouse and Better Auth 1.7, each on SQLite and PostgreSQL, driven by autocannon
// from this process while each server runs as its own child process. `npm run bench` at the repository root
// builds the server, installs this package and runs this file. See README.md for the knobs and the figures.
import { execFile, execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ADMIN_QUERIES, checkQueries, makeUsers, queryPath, seedPostgres, seedSqlite } from "./lib/admin-users.mjs";
import {
  checkPasskeySignIn,
  checkTotpSignIn,
  passkeySignInSteps,
  seedPasskeyUsers,
  seedTotpUsers,
  TOTP_PERIOD_MS,
  TotpPool,
  totpSignInSteps,
  totpStepNow,
} from "./lib/factors.mjs";
import { benchEvents, EVENTS_PG_DATABASES, evaluateEventsTargets, renderEventsMarkdown } from "./lib/events.mjs";
import { runFlowLoad } from "./lib/flow-load.mjs";
import { evaluateOidcTargets, renderOidcMarkdown, runOidcPart } from "./lib/oidc.mjs";
import {
  evaluateImportTargets,
  FIREBASE_FLAGS,
  parseImportSummary,
  renderImportMarkdown,
  writeImportFile,
} from "./lib/import-users.mjs";
import { measureHashLimit, measureHashLimitWith, SCRYPT, TUNED_MALLOC } from "./lib/hash-limit.mjs";
import { runLoad } from "./lib/load.mjs";
import { dropDatabase, recreateDatabase } from "./lib/pg-admin.mjs";
import { cpuTimes, freePort, machineTicks, memoryOf, settle, sleep, startServer, threadCpuTimes } from "./lib/proc.mjs";
import {
  evaluateAdminTargets,
  evaluateFactorsTargets,
  evaluateTargets,
  renderAdminMarkdown,
  renderFactorsMarkdown,
  renderConsole,
  renderMarkdown,
  updateReadme,
} from "./lib/report.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, "..");
const RESULTS = join(HERE, "results");

const num = (name, fallback) => {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number (got "${raw}")`);
  return value;
};

const config = {
  duration: num("BENCH_DURATION", 10),
  warmup: num("BENCH_WARMUP", 2),
  connections: num("BENCH_CONNECTIONS", 32),
  stormReaders: num("BENCH_STORM_READERS", 4),
  stormReadRate: num("BENCH_STORM_READ_RATE", 100),
  hashSeconds: num("BENCH_HASH_SECONDS", 5),
  pgAdminUrl: process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
  adminUsers: num("BENCH_ADMIN_USERS", 100_000),
  adminConnections: (process.env.BENCH_ADMIN_CONNECTIONS ?? "1,4").split(",").map((v) => {
    const n = Number(v.trim());
    if (!Number.isInteger(n) || n <= 0) throw new Error(`BENCH_ADMIN_CONNECTIONS must list whole numbers (got "${v}")`);
    return n;
  }),
  adminDuration: num("BENCH_ADMIN_DURATION", 5),
  importUsers: num("BENCH_IMPORT_USERS", 100_000),
  totpUsers: process.env.BENCH_TOTP_USERS ? num("BENCH_TOTP_USERS", 0) : null,
  cpuProfile: process.env.BENCH_CPU_PROF === "1",
  keepData: process.env.BENCH_KEEP === "1",
};

// BENCH_ONLY: a comma list of parts (hash, ceiling, gatehouse, better-auth, admin, import, factors, events, oidc) and/or databases
// (sqlite, postgres).
const PARTS = ["hash", "ceiling", "gatehouse", "better-auth", "admin", "import", "factors", "events", "oidc"];
// The parts behind the main tables of README.md; the admin, import and factors parts have tables of their own.
const MAIN_PARTS = ["hash", "ceiling", "gatehouse", "better-auth"];
const DATABASES = ["sqlite", "postgres"];
const onlyTokens = (process.env.BENCH_ONLY ?? "")
  .split(",")
  .map((s) => s.trim().toLowerCase())
  .filter(Boolean);
for (const token of onlyTokens) {
  if (![...PARTS, ...DATABASES].includes(token)) {
    throw new Error(`BENCH_ONLY: unknown "${token}" (use ${[...PARTS, ...DATABASES].join(", ")})`);
  }
}
const partsChosen = onlyTokens.filter((t) => PARTS.includes(t));
const dbsChosen = onlyTokens.filter((t) => DATABASES.includes(t));
const parts = partsChosen.length ? partsChosen : PARTS;
const databases = dbsChosen.length ? dbsChosen : DATABASES;
const fullRun = parts.length === PARTS.length && databases.length === DATABASES.length;

const PASSWORD = "correct-horse-battery-9";
const SECRET = "bench-secret-0123456789-abcdefghijklmnopqrstuvwxyz";
const runTag = Date.now().toString(36);
const JSON_HEADERS = { "content-type": "application/json" };

const startedAt = Date.now();
const log = (message) => console.log(`[${((Date.now() - startedAt) / 1000).toFixed(0).padStart(4)} s] ${message}`);

mkdirSync(join(RESULTS, "logs"), { recursive: true });
const work = mkdtempSync(join(tmpdir(), "gatehouse-bench-"));

// ---- the two servers under test --------------------------------------------------------------------------

const TARGETS = {
  gatehouse: {
    label: "Gatehouse",
    pgDatabase: "gatehouse_bench_gatehouse",
    spawnSpec({ port, databaseUrl, cookieCache, dir }) {
      const optionsFile = join(dir, `gatehouse-options-${cookieCache ? "cache" : "nocache"}.json`);
      writeFileSync(
        optionsFile,
        JSON.stringify({
          rateLimit: { enabled: false },
          emailAndPassword: { enabled: true },
          // Better Auth here has no mail sender, so its sign-up mails nothing; neither does Gatehouse's.
          emailVerification: { sendOnSignUp: false },
          session: { expiresIn: 604_800, updateAge: 86_400, cookieCache: { enabled: cookieCache, maxAge: 300 } },
          database: { poolSize: 10 },
        }),
      );
      return {
        // The way the README starts it: the launcher, which sets its malloc settings and execs Node.
        command: join(ROOT, "server/bin/gatehouse"),
        args: ["serve"],
        env: {
          HOST: "127.0.0.1",
          BASE_URL: `http://127.0.0.1:${port}`,
          DATABASE_URL: databaseUrl,
          GATEHOUSE_SECRET: SECRET,
          GATEHOUSE_CONFIG: optionsFile,
          GATEHOUSE_DATA_DIR: dir,
          LOG_LEVEL: "error",
        },
      };
    },
  },
  "better-auth": {
    label: "Better Auth",
    pgDatabase: "gatehouse_bench_better_auth",
    spawnSpec({ databaseUrl, cookieCache }) {
      return {
        args: [join(HERE, "servers/better-auth.mjs")],
        env: {
          BA_DATABASE: databaseUrl,
          BA_COOKIE_CACHE: cookieCache ? "1" : "0",
          BA_SECRET: SECRET,
          BA_POOL_SIZE: "10",
        },
      };
    },
  },
};

// ---- requests used to seed and check ---------------------------------------------------------------------

// POSTs carry the service's own origin, as a browser on the same site sends it (both servers require one).
const postHeaders = (base) => ({ ...JSON_HEADERS, origin: base });

async function post(base, path, body) {
  const response = await fetch(base + path, { method: "POST", headers: postHeaders(base), body: JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${path} answered ${response.status}: ${text.slice(0, 300)}`);
  return response;
}

/** The Cookie header that sends back the cookies a response set (those with a value). */
const cookieOf = (response) =>
  response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .filter((pair) => pair.split("=")[1])
    .join("; ");

/**
 * Signs up one user and signs in once per get-session connection, as that many browsers would; returns the Cookie
 * headers that name those sessions (and their caches), each checked. Every connection of a get-session load sends
 * its own session, so a server cannot answer the load from one cached row.
 */
async function seedUser(base, email) {
  await post(base, "/api/auth/sign-up/email", { name: "Bench User", email, password: PASSWORD });
  const cookies = [];
  for (let i = 0; i < config.connections; i++) {
    const response = await post(base, "/api/auth/sign-in/email", { email, password: PASSWORD });
    const cookie = cookieOf(response);
    const check = await fetch(base + "/api/auth/get-session", { headers: { cookie } });
    const data = await check.json();
    if (!data?.session?.token) throw new Error(`get-session with a seeded cookie gave no session: ${JSON.stringify(data)}`);
    cookies.push(cookie);
  }
  if (new Set(cookies).size !== cookies.length) throw new Error("the seeded sign-ins did not give distinct sessions");
  return cookies;
}

// ---- loads -----------------------------------------------------------------------------------------------

const getSessionLoad = (base, cookies, extra = {}) => ({
  url: base,
  path: "/api/auth/get-session",
  headersOf: (i) => ({ cookie: cookies[i % cookies.length] }),
  connections: config.connections,
  duration: config.duration,
  ...extra,
});

const signInLoad = (base, email, extra = {}) => ({
  url: base,
  method: "POST",
  path: "/api/auth/sign-in/email",
  headers: postHeaders(base),
  body: JSON.stringify({ email, password: PASSWORD }),
  connections: config.connections,
  duration: config.duration,
  timeout: 60,
  ...extra,
});

function signUpLoad(base, prefix, extra = {}) {
  let n = 0;
  return {
    url: base,
    method: "POST",
    path: "/api/auth/sign-up/email",
    headers: postHeaders(base),
    makeBody: () => JSON.stringify({ name: "Bench User", email: `${prefix}-${n++}@bench.example`, password: PASSWORD }),
    connections: config.connections,
    duration: config.duration,
    timeout: 60,
    ...extra,
  };
}

/** A storm (32 connections) and, starting 1 s into it, a light get-session load whose latencies are reported. */
async function stormWithReads(storm, base, cookies) {
  const stormRun = runLoad({ ...storm, duration: config.duration + 2 });
  await sleep(1000);
  const reads = await runLoad(
    getSessionLoad(base, cookies, { connections: config.stormReaders, overallRate: config.stormReadRate }),
  );
  return { reads, storm: await stormRun };
}

/**
 * A load against a server, with the server's CPU time per answered request (all its threads: user and system,
 * in microseconds). Unlike req/s, this hardly depends on how fast the load generator is.
 */
async function measure(server, opts, run = runLoad) {
  const before = cpuTimes(server.pid);
  const mainBefore = threadCpuTimes(server.pid);
  const machineBefore = machineTicks();
  const driverBefore = process.cpuUsage();
  const result = await run(opts);
  const after = cpuTimes(server.pid);
  const mainAfter = threadCpuTimes(server.pid);
  const machineAfter = machineTicks();
  const driver = process.cpuUsage(driverBefore);
  const perRequest = (ticks) => (result.ok ? Math.round((ticks * 10_000) / result.ok) : null);
  result.serverCpuUs = { user: perRequest(after.user - before.user), system: perRequest(after.system - before.system) };
  // The main thread alone (the event loop: HTTP, queries, everything but the password-hash workers).
  result.serverMainThreadCpuUs = perRequest(mainAfter.user + mainAfter.system - mainBefore.user - mainBefore.system);
  // Where the machine's CPU went during the load, in % of all cores: this server, this driver, and everything else
  // (PostgreSQL included, and whatever else runs on the machine).
  const total = machineAfter.total - machineBefore.total;
  const pct = (ticks) => Math.round((100 * ticks) / total);
  const serverTicks = after.user + after.system - before.user - before.system;
  const driverTicks = (driver.user + driver.system) / 10_000;
  result.cpuShare = {
    server: pct(serverTicks),
    driver: pct(driverTicks),
    other: pct(Math.max(0, machineAfter.busy - machineBefore.busy - serverTicks - driverTicks)),
    idle: pct(total - (machineAfter.busy - machineBefore.busy)),
  };
  return result;
}

const brief = (r) =>
  `${r.rps} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms${r.serverCpuUs ? `, server CPU ${r.serverCpuUs.user} + ${r.serverCpuUs.system} µs/req (main thread ${r.serverMainThreadCpuUs})` : ""}${r.cpuShare ? ` (machine: server ${r.cpuShare.server}%, driver ${r.cpuShare.driver}%, other ${r.cpuShare.other}%, idle ${r.cpuShare.idle}%)` : ""}${r.non2xx || r.errors ? `, non-2xx ${r.non2xx}, errors ${r.errors}` : ""}`;

/**
 * The password-hash limit, measured now. Other work on the machine moves it, so it is measured at the start and
 * the end of the run and right before every sign-in and sign-up load, which are compared with the one before them.
 */
const hashRuns = [];
const tunedHashRuns = [];
/**
 * Measured twice: with Node as it comes, and with the malloc settings of Gatehouse's launcher (faster: no page
 * faults on scrypt's buffer). The limit a load is compared with is the higher of the two, so a server is held to
 * the best hash rate this machine is known to reach, not to the plain one.
 */
async function measureBothHashLimits() {
  const plain = await measureHashLimit(config.hashSeconds);
  const tuned = await measureHashLimitWith({ GLIBC_TUNABLES: TUNED_MALLOC }, config.hashSeconds);
  hashRuns.push(plain.hashesPerSecond);
  tunedHashRuns.push(tuned.hashesPerSecond);
  return { plain: plain.hashesPerSecond, tuned: tuned.hashesPerSecond, best: Math.max(plain.hashesPerSecond, tuned.hashesPerSecond) };
}
async function hashLimit() {
  const { plain, tuned, best } = await measureBothHashLimits();
  log(`  password-hash limit now: ${best} hashes/s (plain ${plain}, launcher's malloc settings ${tuned})`);
  return best;
}

// ---- one server on one database --------------------------------------------------------------------------

/** Starts a server under test from its spawn spec; its log goes to results/logs, a CPU profile when asked. */
function startTarget(tag, spec, port) {
  return startServer({
    name: tag,
    ...spec,
    port,
    readyPath: "/api/auth/get-session",
    logFile: join(RESULTS, "logs", `${tag}.log`),
    nodeArgs: config.cpuProfile ? ["--cpu-prof", `--cpu-prof-dir=${join(RESULTS, "profiles", tag)}`] : [],
  });
}

async function benchTarget(targetName, database) {
  const target = TARGETS[targetName];
  const dir = join(work, `${targetName}-${database}`);
  mkdirSync(dir, { recursive: true });
  let databaseUrl;
  const out = { database };
  if (database === "sqlite") {
    databaseUrl = `sqlite://${join(dir, "bench.db")}`;
  } else {
    const created = await recreateDatabase(config.pgAdminUrl, target.pgDatabase);
    databaseUrl = created.url;
    out.postgresVersion = created.version;
  }

  for (const cookieCache of [false, true]) {
    const tag = `${targetName}-${database}-cache-${cookieCache ? "on" : "off"}`;
    const port = await freePort();
    const spec = target.spawnSpec({ port, databaseUrl, cookieCache, dir });
    log(`${target.label} on ${database}, cookie cache ${cookieCache ? "on" : "off"}: starting`);
    const server = await startTarget(tag, spec, port);
    try {
      const cookies = await seedUser(server.base, `seed-${runTag}-${tag}@bench.example`);
      await settle(server.pid);
      await sleep(1000);
      const idle = memoryOf(server.pid);
      if (!cookieCache) out.rssIdleMb = idle.rssMb;

      await runLoad(getSessionLoad(server.base, cookies, { duration: config.warmup }));
      const gs = await measure(server, getSessionLoad(server.base, cookies));
      log(`  get-session: ${brief(gs)}`);
      out[cookieCache ? "getSessionCached" : "getSession"] = gs;

      if (!cookieCache) {
        const email = `seed-${runTag}-${tag}@bench.example`;
        await settle(server.pid);
        // The limit moves while a load runs (other work on the machine), so it is measured on both sides of each
        // load and the load is compared with the mean of the two.
        out.hashLimitBeforeSignIn = await hashLimit();
        out.signIn = await measure(server, signInLoad(server.base, email));
        log(`  sign-in: ${brief(out.signIn)}`);
        await settle(server.pid);
        out.hashLimitAfterSignIn = await hashLimit();
        out.hashLimitBeforeSignUp = out.hashLimitAfterSignIn;
        out.signUp = await measure(server, signUpLoad(server.base, `su-${runTag}-${tag}`));
        log(`  sign-up: ${brief(out.signUp)}`);
        await settle(server.pid);
        out.hashLimitAfterSignUp = await hashLimit();
        out.hashLimitForSignIn = Math.round(((out.hashLimitBeforeSignIn + out.hashLimitAfterSignIn) / 2) * 10) / 10;
        out.hashLimitForSignUp = Math.round(((out.hashLimitBeforeSignUp + out.hashLimitAfterSignUp) / 2) * 10) / 10;
        // The storms' get-session load alone, as their baseline: what the machine gives without a storm.
        out.pacedAlone = await runLoad(
          getSessionLoad(server.base, cookies, { connections: config.stormReaders, overallRate: config.stormReadRate }),
        );
        log(`  get-session paced, no storm: ${brief(out.pacedAlone)}`);
        out.stormSignIn = await stormWithReads(signInLoad(server.base, email), server.base, cookies);
        log(`  get-session during sign-in storm: ${brief(out.stormSignIn.reads)} (storm ${out.stormSignIn.storm.rps} req/s)`);
        await settle(server.pid);
        out.stormSignUp = await stormWithReads(signUpLoad(server.base, `storm-${runTag}-${tag}`), server.base, cookies);
        log(`  get-session during sign-up storm: ${brief(out.stormSignUp.reads)} (storm ${out.stormSignUp.storm.rps} req/s)`);
        await settle(server.pid);
      }
      const mem = memoryOf(server.pid);
      out.rssPeakMb = Math.max(out.rssPeakMb ?? 0, mem.hwmMb);
      if (server.exited) throw new Error(`${tag} exited during the run: ${JSON.stringify(server.exited)}`);
    } finally {
      await server.stop();
    }
  }
  return out;
}

async function benchCeiling(database = "sqlite") {
  const port = await freePort();
  const env =
    database === "sqlite"
      ? { CEILING_DB: join(work, "ceiling.db") }
      : { CEILING_PG: (await recreateDatabase(config.pgAdminUrl, "gatehouse_bench_ceiling")).url };
  const server = await startServer({
    name: `ceiling-${database}`,
    args: [join(HERE, "servers/ceiling.mjs")],
    env,
    port,
    readyPath: "/",
    logFile: join(RESULTS, "logs", `ceiling-${database}.log`),
  });
  try {
    const load = { url: server.base, path: "/", connections: config.connections };
    await runLoad({ ...load, duration: config.warmup });
    const result = await measure(server, { ...load, duration: config.duration });
    result.rssPeakMb = memoryOf(server.pid).hwmMb;
    // The storms' paced reads against the bare server: the latency tail this machine gives any server.
    await settle(server.pid);
    result.paced = await runLoad({
      ...load,
      connections: config.stormReaders,
      overallRate: config.stormReadRate,
      duration: config.duration,
    });
    log(`  paced: ${brief(result.paced)}`);
    return result;
  } finally {
    await server.stop();
  }
}

// ---- second factors and passkeys (the factors part) --------------------------------------------------------

const FACTORS_PG_DATABASE = "gatehouse_bench_factors";

/**
 * Gatehouse on a fresh database (cookie cache off, as the main sign-in loads), with users enrolled through the real
 * routes: TOTP users (sign-up, two-factor/enable with the password, verify-totp) and passkey users (sign-up, then a
 * passkey registered from that fresh session). Then, each with the hash limit measured just before and just after
 * the hash-bound ones: password sign-in of the passkey users (one request, autocannon as the main sign-in load), a
 * TOTP sign-in (sign-in/email, then two-factor/verify-totp with the pending cookie: both requests are one
 * operation) and a passkey sign-in (generate-authenticate-options, then verify-authentication: one operation).
 */
async function benchFactors(database) {
  const dir = join(work, `factors-${database}`);
  mkdirSync(dir, { recursive: true });
  const out = { database };
  let databaseUrl;
  if (database === "sqlite") {
    databaseUrl = `sqlite://${join(dir, "bench.db")}`;
  } else {
    const created = await recreateDatabase(config.pgAdminUrl, FACTORS_PG_DATABASE);
    databaseUrl = created.url;
    out.postgresVersion = created.version;
  }
  const tag = `gatehouse-factors-${database}`;
  const port = await freePort();
  const spec = TARGETS.gatehouse.spawnSpec({ port, databaseUrl, cookieCache: false, dir });
  log(`Gatehouse second factors and passkeys on ${database}: starting`);
  const server = await startTarget(tag, spec, port);
  try {
    const base = server.base;
    // A user's TOTP code is accepted once per time step, and only a later step after it (within one step of the
    // server's clock): each user finishes two sign-ins at first (the current step's code, then the next one's), then
    // one per 30 s. Enough users for the whole load at the machine's hash rate, with a margin, plus one per connection.
    const estimate = (await measureHashLimitWith({ GLIBC_TUNABLES: TUNED_MALLOC }, 1)).hashesPerSecond;
    const totpCount =
      config.totpUsers ??
      config.connections + Math.ceil((1.3 * estimate * Math.min(config.duration + 2, 60)) / 2);
    const seedStart = Date.now();
    const totpUsers = await seedTotpUsers(base, { prefix: `totp-${runTag}-${database}`, count: totpCount, password: PASSWORD });
    const pool = new TotpPool(totpUsers);
    // Each enrolment spent the step of its code (the check below spends one more user's next step).
    const enrolledStep = Math.max(...totpUsers.map((u) => u.lastStep));
    const passkeys = await seedPasskeyUsers(base, { prefix: `pk-${runTag}-${database}`, count: config.connections, password: PASSWORD });
    out.seeded = { totpUsers: totpCount, passkeyUsers: passkeys.emails.length, seconds: Math.round((Date.now() - seedStart) / 100) / 10 };
    log(`  seeded ${totpCount} users with an authenticator app and ${passkeys.emails.length} with a passkey in ${out.seeded.seconds} s`);
    await checkTotpSignIn(base, pool, PASSWORD);
    await checkPasskeySignIn(base, passkeys.authenticator, passkeys.emails);
    log("  one TOTP sign-in and one passkey sign-in checked (each session is the user's)");
    await settle(server.pid);
    await sleep(1000);
    out.rssIdleMb = memoryOf(server.pid).rssMb;

    // Password sign-in, one request, as the main sign-in load (a passkey user: no second factor).
    out.hashLimitBeforePassword = await hashLimit();
    out.passwordSignIn = await measure(server, signInLoad(base, passkeys.emails[0]));
    log(`  password sign-in: ${brief(out.passwordSignIn)}`);
    await settle(server.pid);
    out.hashLimitAfterPassword = await hashLimit();
    out.hashLimitForPassword = Math.round(((out.hashLimitBeforePassword + out.hashLimitAfterPassword) / 2) * 10) / 10;

    // TOTP sign-in: both requests are one operation. Every user spent the step of its enrolment: the load starts
    // once the clock is past all of them, so that each has two steps to give (usually it is already).
    if (totpStepNow() <= enrolledStep) {
      const wait = (enrolledStep + 1) * TOTP_PERIOD_MS - Date.now() + 200;
      log(`  waiting ${(wait / 1000).toFixed(1)} s for the next TOTP step`);
      await sleep(wait);
    }
    out.hashLimitBeforeTotp = out.hashLimitAfterPassword;
    out.totpSignIn = await measure(
      server,
      {
        name: "TOTP sign-in",
        url: base,
        connections: config.connections,
        duration: config.duration,
        timeout: 60,
        steps: totpSignInSteps(base, pool, PASSWORD),
        end: (context) => pool.give(context.user),
      },
      runFlowLoad,
    );
    out.totpSignIn.poolExhausted = pool.exhausted;
    log(`  TOTP sign-in (both requests): ${brief(out.totpSignIn)}${pool.exhausted ? `; ${pool.exhausted} found no user with a step left` : ""}`);
    await settle(server.pid);
    out.hashLimitAfterTotp = await hashLimit();
    out.hashLimitForTotp = Math.round(((out.hashLimitBeforeTotp + out.hashLimitAfterTotp) / 2) * 10) / 10;

    // Passkey sign-in: both requests are one operation, no password hash; warmed up like the get-session loads.
    const passkeyLoad = (duration) => ({
      name: "passkey sign-in",
      url: base,
      connections: config.connections,
      duration,
      timeout: 60,
      steps: passkeySignInSteps(base, passkeys.authenticator),
    });
    await runFlowLoad(passkeyLoad(config.warmup));
    await settle(server.pid);
    out.passkeySignIn = await measure(server, passkeyLoad(config.duration), runFlowLoad);
    log(`  passkey sign-in (both requests): ${brief(out.passkeySignIn)}`);
    out.rssPeakMb = memoryOf(server.pid).hwmMb;
    if (server.exited) throw new Error(`${tag} exited during the run: ${JSON.stringify(server.exited)}`);
  } finally {
    await server.stop();
  }
  return out;
}

// ---- the administrators' user list on a large table ------------------------------------------------------

const ADMIN_PG_DATABASE = "gatehouse_bench_admin";

/**
 * Gatehouse on a fresh database (`gatehouse serve` runs the migrations), the made-up users written straight into
 * its user table, an administrator made by `gatehouse create-admin` and signed in over HTTP, then each list-users
 * request checked once (status, total, the page's ids) and loaded.
 */
async function benchAdmin(database) {
  const dir = join(work, `admin-${database}`);
  mkdirSync(dir, { recursive: true });
  const out = { database, seededUsers: config.adminUsers, queries: {} };
  let databaseUrl;
  if (database === "sqlite") {
    databaseUrl = `sqlite://${join(dir, "bench.db")}`;
  } else {
    const created = await recreateDatabase(config.pgAdminUrl, ADMIN_PG_DATABASE);
    databaseUrl = created.url;
    out.postgresVersion = created.version;
  }
  const tag = `gatehouse-admin-${database}`;
  const port = await freePort();
  const spec = TARGETS.gatehouse.spawnSpec({ port, databaseUrl, cookieCache: false, dir });
  log(`Gatehouse admin list-users on ${database}: starting`);
  const server = await startTarget(tag, spec, port);
  try {
    const seedStart = Date.now();
    const users = makeUsers(config.adminUsers);
    let checkOrder = true;
    if (database === "sqlite") {
      seedSqlite(join(dir, "bench.db"), users);
    } else {
      // The expected pages sort strings by code point; other collations order names differently.
      const { collation } = await seedPostgres(databaseUrl, users);
      checkOrder = /^(C|POSIX|C\.UTF-?8)$/i.test(collation);
      if (!checkOrder) log(`  note: database collation ${collation}: the pages' order is not checked, only totals`);
    }
    out.seedSeconds = Math.round((Date.now() - seedStart) / 100) / 10;
    log(`  seeded ${users.length.toLocaleString("en-US")} users in ${out.seedSeconds} s`);

    // The administrator, made as an operator would, then signed in over HTTP like any user.
    const email = `admin-${runTag}@bench.example`;
    const env = { ...process.env, ...spec.env, PORT: String(port) };
    delete env.NODE_ENV;
    execFileSync(
      process.execPath,
      [join(ROOT, "server/dist/main.js"), "create-admin", "--email", email, "--password", PASSWORD, "--name", "Bench Admin"],
      { env, stdio: "pipe" },
    );
    const signIn = await fetch(server.base + "/api/auth/sign-in/email", {
      method: "POST",
      headers: postHeaders(server.base),
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    const signedIn = await signIn.json();
    if (!signIn.ok || !signedIn?.user?.id) throw new Error(`the administrator's sign-in answered ${signIn.status}: ${JSON.stringify(signedIn)}`);
    const cookie = cookieOf(signIn);
    const admin = signedIn.user;
    users.push({ id: admin.id, name: admin.name, email: admin.email, role: "admin", banned: false, createdAt: Date.parse(admin.createdAt) });

    const checked = await checkQueries(server.base, cookie, users, { checkOrder });
    log(`  every request answered 200 with the expected total${checkOrder ? " and page" : ""}`);
    await settle(server.pid);
    out.rssIdleMb = memoryOf(server.pid).rssMb;

    for (const q of ADMIN_QUERIES) {
      const load = { url: server.base, path: queryPath(q), headers: { cookie } };
      await runLoad({ ...load, connections: 1, duration: config.warmup });
      const byConnections = {};
      for (const connections of config.adminConnections) {
        await settle(server.pid);
        byConnections[connections] = await measure(server, { ...load, connections, duration: config.adminDuration });
        log(`  ${q.key} (${checked[q.key].total} match), ${connections} conn.: ${brief(byConnections[connections])}`);
      }
      out.queries[q.key] = { label: q.label, total: checked[q.key].total, responseBytes: checked[q.key].bytes, byConnections };
    }
    out.rssPeakMb = memoryOf(server.pid).hwmMb;
    if (server.exited) throw new Error(`${tag} exited during the run: ${JSON.stringify(server.exited)}`);
  } finally {
    await server.stop();
  }
  return out;
}

// ---- gatehouse import of 100,000 users ---------------------------------------------------------------------

const IMPORT_PG_DATABASE = "gatehouse_bench_import";

/** Runs the CLI through its launcher as an operator would; answers its output, wall time and peak RSS. */
function runGatehouseCli(args, env) {
  return new Promise((resolve, reject) => {
    const start = Date.now();
    let hwmMb = null;
    const child = execFile(join(ROOT, "server/bin/gatehouse"), args, { env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      clearInterval(poll);
      const wallSeconds = Math.round((Date.now() - start) / 100) / 10;
      if (error && error.code !== 3) reject(new Error(`gatehouse ${args[0]} failed (${error.code}): ${stderr.slice(0, 500)} ${stdout.slice(0, 500)}`));
      else resolve({ stdout, stderr, wallSeconds, rssPeakMb: hwmMb });
    });
    // VmHWM only grows: its last reading before the exit is the peak (the launcher execs Node in the same process).
    const poll = setInterval(() => {
      try {
        const reading = memoryOf(child.pid).hwmMb;
        if (Number.isFinite(reading)) hwmMb = reading;
      } catch {
        // exited between two readings
      }
    }, 100);
  });
}

/**
 * `gatehouse import` of the made-up users into a fresh database (`--create` makes it and applies the migrations), in a
 * process of its own; then the same file again, which must write nothing; then the rows counted.
 */
async function benchImport(database, file, made) {
  const dir = join(work, `import-${database}`);
  mkdirSync(dir, { recursive: true });
  const out = { database, made };
  let databaseUrl;
  if (database === "sqlite") {
    databaseUrl = `sqlite://${join(dir, "bench.db")}`;
  } else {
    const created = await recreateDatabase(config.pgAdminUrl, IMPORT_PG_DATABASE);
    databaseUrl = created.url;
    out.postgresVersion = created.version;
  }
  const env = { PATH: process.env.PATH, DATABASE_URL: databaseUrl, GATEHOUSE_SECRET: SECRET, GATEHOUSE_DATA_DIR: dir, LOG_LEVEL: "error" };
  log(`gatehouse import of ${made.users.toLocaleString("en-US")} users on ${database}`);
  const first = await runGatehouseCli(["import", file, "--create", ...FIREBASE_FLAGS], env);
  out.first = { ...parseImportSummary(first.stdout), wallSeconds: first.wallSeconds };
  out.rssPeakMb = first.rssPeakMb;
  log(`  ${out.first.imported.toLocaleString("en-US")} imported in ${out.first.seconds} s: ${out.first.usersPerSecond.toLocaleString("en-US")} users/s (process ${first.wallSeconds} s, peak RSS ${first.rssPeakMb} MB)`);
  if (out.first.imported !== made.users || out.first.rejected) {
    throw new Error(`import wrote ${out.first.imported} of ${made.users} users, rejected ${out.first.rejected}: ${first.stderr.slice(0, 500)}`);
  }
  await settle(process.pid);
  const second = await runGatehouseCli(["import", file, ...FIREBASE_FLAGS], env);
  out.second = { ...parseImportSummary(second.stdout), wallSeconds: second.wallSeconds };
  log(`  the same file again: ${out.second.skipped.toLocaleString("en-US")} skipped, ${out.second.imported} imported in ${out.second.seconds} s`);
  if (out.second.imported !== 0 || out.second.skipped !== made.users) throw new Error("the second run of the same file wrote users");

  out.rows = await countRows(database, databaseUrl, join(dir, "bench.db"));
  if (out.rows.users !== made.users || out.rows.accounts !== made.users + made.providerAccounts) {
    throw new Error(`after both runs: ${out.rows.users} users and ${out.rows.accounts} accounts, expected ${made.users} and ${made.users + made.providerAccounts}`);
  }
  return out;
}

async function countRows(database, url, sqliteFile) {
  const statement = 'SELECT (SELECT count(*) FROM "user") AS users, (SELECT count(*) FROM account) AS accounts';
  if (database === "sqlite") {
    const { default: Database } = await import("better-sqlite3");
    const db = new Database(sqliteFile, { readonly: true });
    try {
      const row = db.prepare(statement).get();
      return { users: Number(row.users), accounts: Number(row.accounts) };
    } finally {
      db.close();
    }
  }
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(statement);
    return { users: Number(rows[0].users), accounts: Number(rows[0].accounts) };
  } finally {
    await client.end();
  }
}

// ---- the run ---------------------------------------------------------------------------------------------

function gitDescribe() {
  try {
    const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT, encoding: "utf8" }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "--", "server"], { cwd: ROOT, encoding: "utf8" }).trim();
    return dirty ? `${commit} (server/ modified)` : commit;
  } catch {
    return "unknown";
  }
}

const versionOf = (path) => JSON.parse(readFileSync(path, "utf8")).version;

const results = {
  date: new Date().toISOString(),
  machine: {
    cpu: cpus()[0]?.model ?? "unknown",
    cores: availableParallelism(),
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    loadAverageAtStart: loadavg().map((v) => Math.round(v * 100) / 100),
  },
  versions: {
    gatehouse: `${versionOf(join(ROOT, "server/package.json"))} @ ${gitDescribe()}`,
    betterAuth: versionOf(join(HERE, "node_modules/better-auth/package.json")),
    autocannon: versionOf(join(HERE, "node_modules/autocannon/package.json")),
  },
  config: { ...config, pgAdminUrl: undefined, parts, databases },
  hashLimit: null,
  ceiling: null,
  ceilingPostgres: null,
  servers: {},
  admin: null,
  import: null,
  factors: null,
  events: null,
  errors: [],
};

async function main() {
  log(`parts: ${parts.join(", ")}; databases: ${databases.join(", ")}; ${config.duration} s per load`);
  if (loadavg()[0] > availableParallelism()) {
    log(`note: load average ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores: other work will move the figures`);
  }
  let firstHash;
  if (parts.includes("hash")) {
    log("password-hash limit (scrypt N=16384 r=16 p=1, one thread per core)");
    firstHash = await measureBothHashLimits();
    log(`  ${firstHash.best} hashes/s (plain ${firstHash.plain}, launcher's malloc settings ${firstHash.tuned})`);
  }
  if (parts.includes("ceiling")) {
    log("ceiling: bare node:http + one SQLite primary-key select");
    try {
      results.ceiling = await benchCeiling();
      log(`  ${brief(results.ceiling)}`);
    } catch (error) {
      results.errors.push(`ceiling: ${error.message}`);
      log(`  failed: ${error.message}`);
    }
    if (databases.includes("postgres")) {
      log("ceiling: bare node:http + one PostgreSQL primary-key select");
      try {
        results.ceilingPostgres = await benchCeiling("postgres");
        log(`  ${brief(results.ceilingPostgres)}`);
      } catch (error) {
        results.errors.push(`ceiling on postgres: ${error.message}`);
        log(`  failed: ${error.message}`);
      } finally {
        await dropDatabase(config.pgAdminUrl, "gatehouse_bench_ceiling").catch(() => undefined);
      }
    }
  }
  for (const targetName of ["gatehouse", "better-auth"]) {
    if (!parts.includes(targetName)) continue;
    results.servers[targetName] = {};
    for (const database of databases) {
      try {
        results.servers[targetName][database] = await benchTarget(targetName, database);
      } catch (error) {
        results.errors.push(`${targetName} on ${database}: ${error.message}`);
        results.servers[targetName][database] = { database, error: error.message };
        log(`  failed: ${error.message}`);
      }
    }
  }
  if (parts.includes("admin")) {
    results.admin = {};
    for (const database of [...databases].reverse()) {
      try {
        results.admin[database] = await benchAdmin(database);
      } catch (error) {
        results.errors.push(`admin list-users on ${database}: ${error.message}`);
        results.admin[database] = { database, error: error.message };
        log(`  failed: ${error.message}`);
      } finally {
        if (database === "postgres" && !config.keepData) {
          await dropDatabase(config.pgAdminUrl, ADMIN_PG_DATABASE).catch(() => undefined);
        }
      }
    }
  }
  if (parts.includes("import")) {
    results.import = {};
    const file = join(work, "import-users.jsonl");
    const made = writeImportFile(file, config.importUsers);
    for (const database of [...databases].reverse()) {
      try {
        await settle(process.pid);
        results.import[database] = await benchImport(database, file, made);
      } catch (error) {
        results.errors.push(`import on ${database}: ${error.message}`);
        results.import[database] = { database, made, error: error.message };
        log(`  failed: ${error.message}`);
      } finally {
        if (database === "postgres" && !config.keepData) {
          await dropDatabase(config.pgAdminUrl, IMPORT_PG_DATABASE).catch(() => undefined);
        }
      }
    }
  }
  if (parts.includes("factors")) {
    results.factors = {};
    for (const database of databases) {
      try {
        await settle(process.pid);
        results.factors[database] = await benchFactors(database);
      } catch (error) {
        results.errors.push(`factors on ${database}: ${error.message}`);
        results.factors[database] = { database, error: error.message };
        log(`  failed: ${error.message}`);
      } finally {
        if (database === "postgres" && !config.keepData) {
          await dropDatabase(config.pgAdminUrl, FACTORS_PG_DATABASE).catch(() => undefined);
        }
      }
    }
  }
  if (parts.includes("events")) {
    results.events = {};
    for (const database of databases) {
      try {
        await settle(process.pid);
        // lib/events.mjs, given what it shares with the other parts.
        results.events[database] = await benchEvents(database, {
          config,
          log,
          work,
          logDir: join(RESULTS, "logs"),
          pgAdminUrl: config.pgAdminUrl,
          password: PASSWORD,
          runTag,
          spawnSpec: TARGETS.gatehouse.spawnSpec,
          startTarget,
          measure,
          brief,
          hashLimit,
          seedUser,
          getSessionLoad,
          signInLoad,
          post,
          postHeaders,
          cookieOf,
        });
      } catch (error) {
        results.errors.push(`events on ${database}: ${error.message}`);
        results.events[database] = { database, error: error.message };
        log(`  failed: ${error.message}`);
      } finally {
        if (database === "postgres" && !config.keepData) {
          for (const name of EVENTS_PG_DATABASES) await dropDatabase(config.pgAdminUrl, name).catch(() => undefined);
        }
      }
    }
  }
  if (parts.includes("oidc")) {
    // lib/oidc.mjs, given what it shares with the other parts; it catches its own failures (listed in
    // results.errors) and drops its PostgreSQL databases itself.
    results.oidc = await runOidcPart(databases, {
      config,
      log,
      work,
      errors: results.errors,
      startTarget,
      measure,
      brief,
      gatehouseSpawnSpec: TARGETS.gatehouse.spawnSpec,
      secret: SECRET,
      password: PASSWORD,
      runTag,
      here: HERE,
    });
  }
  if (parts.includes("hash")) {
    log("password-hash limit, again at the end");
    const last = await measureBothHashLimits();
    log(`  ${last.best} hashes/s (plain ${last.plain}, launcher's malloc settings ${last.tuned})`);
  }
  if (hashRuns.length) {
    const summary = (runs) => {
      const sorted = [...runs].sort((a, b) => a - b);
      return { runs, best: sorted[sorted.length - 1], median: sorted[Math.floor((sorted.length - 1) / 2)] };
    };
    const plain = summary(hashRuns);
    const tuned = summary(tunedHashRuns);
    const overall = tuned.best >= plain.best ? tuned : plain;
    results.hashLimit = {
      params: SCRYPT,
      threads: availableParallelism(),
      seconds: config.hashSeconds,
      runs: overall.runs,
      best: overall.best,
      median: overall.median,
      plain,
      tuned: { ...tuned, glibcTunables: TUNED_MALLOC },
    };
  }
  results.machine.loadAverageAtEnd = loadavg().map((v) => Math.round(v * 100) / 100);
  results.durationSeconds = Math.round((Date.now() - startedAt) / 1000);
  results.targets = evaluateTargets(results);
  results.adminTargets = evaluateAdminTargets(results);
  results.importTargets = evaluateImportTargets(results);
  results.factorsTargets = evaluateFactorsTargets(results);
  results.eventsTargets = evaluateEventsTargets(results);
  results.oidcTargets = evaluateOidcTargets(results);

  writeFileSync(join(RESULTS, "latest.json"), JSON.stringify(results, null, 2) + "\n");
  // Each table of README.md is written only by a run of its own parts: a run of the admin part alone leaves the
  // main tables as they are, and the other way round.
  const mainRan = parts.some((p) => MAIN_PARTS.includes(p));
  if (mainRan) console.log("\n" + renderConsole(results));
  if (results.admin) console.log("\n" + renderConsole(results, renderAdminMarkdown));
  if (results.import) console.log("\n" + renderConsole(results, renderImportMarkdown));
  if (results.factors) console.log("\n" + renderConsole(results, renderFactorsMarkdown));
  if (results.events) console.log("\n" + renderConsole(results, renderEventsMarkdown));
  if (results.oidc) console.log("\n" + renderConsole(results, renderOidcMarkdown));
  if (fullRun || process.env.BENCH_README === "1") {
    if (mainRan) updateReadme(join(HERE, "README.md"), renderMarkdown(results));
    if (results.admin) updateReadme(join(HERE, "README.md"), renderAdminMarkdown(results), "admin-results");
    if (results.import) updateReadme(join(HERE, "README.md"), renderImportMarkdown(results), "import-results");
    if (results.factors) updateReadme(join(HERE, "README.md"), renderFactorsMarkdown(results), "factors-results");
    if (results.events) updateReadme(join(HERE, "README.md"), renderEventsMarkdown(results), "events-results");
    if (results.oidc) updateReadme(join(HERE, "README.md"), renderOidcMarkdown(results), "oidc-results");
    log(`wrote bench/results/latest.json and the ${[mainRan && "main", results.admin && "admin", results.import && "import", results.factors && "factors", results.events && "events", results.oidc && "oidc"].filter(Boolean).join(", ")} tables in bench/README.md`);
  } else {
    log("wrote bench/results/latest.json (a partial run leaves bench/README.md as it is; BENCH_README=1 writes it)");
  }
}

try {
  await main();
} finally {
  if (!config.keepData) {
    rmSync(work, { recursive: true, force: true });
    if (parts.some((p) => p === "gatehouse" || p === "better-auth") && databases.includes("postgres")) {
      for (const name of ["gatehouse", "better-auth"].filter((p) => parts.includes(p)).map((p) => TARGETS[p].pgDatabase)) {
        await dropDatabase(config.pgAdminUrl, name).catch(() => undefined);
      }
    }
    if (parts.includes("admin") && databases.includes("postgres")) {
      await dropDatabase(config.pgAdminUrl, ADMIN_PG_DATABASE).catch(() => undefined);
    }
    if (parts.includes("import") && databases.includes("postgres")) {
      await dropDatabase(config.pgAdminUrl, IMPORT_PG_DATABASE).catch(() => undefined);
    }
    if (parts.includes("factors") && databases.includes("postgres")) {
      await dropDatabase(config.pgAdminUrl, FACTORS_PG_DATABASE).catch(() => undefined);
    }
    if (parts.includes("events") && databases.includes("postgres")) {
      for (const name of EVENTS_PG_DATABASES) await dropDatabase(config.pgAdminUrl, name).catch(() => undefined);
    }
  }
}
process.exitCode = results.errors.length ? 1 : 0;
