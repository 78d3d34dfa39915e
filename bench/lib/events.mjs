// The `events` part (issue #17): what the security events, the audit log and one webhook endpoint cost Gatehouse,
// and how soon each webhook arrives. See README.md, "Security events and webhooks", for what is measured and why.
import { fork } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, openSync, closeSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { runFlowLoad } from "./flow-load.mjs";
import { runLoad } from "./load.mjs";
import { recreateDatabase } from "./pg-admin.mjs";
import { cpuTimes, freePort, memoryOf, settle, sleep } from "./proc.mjs";
import { fmtMs, fmtRps } from "./report.mjs";

/** The PostgreSQL databases of the part: one for the service with events off, one with them on. */
export const EVENTS_PG_DATABASES = ["gatehouse_bench_events_off", "gatehouse_bench_events_on"];

const num = (name, fallback) => {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a whole positive number (got "${raw}")`);
  return value;
};

/** Knobs of this part only (README.md lists them with the others). */
export const EVENTS_CONFIG = {
  /** Interleaved pairs of runs (off then on, on then off, ...) of the get-session and sign-in loads. */
  pairs: num("BENCH_EVENTS_PAIRS", 4),
  /** Profile updates sent in the delivery-latency run. */
  updates: num("BENCH_EVENTS_UPDATES", 1000),
};

/** The targets' thresholds. */
export const EVENTS_LIMITS = {
  signInCpu: 1.05,
  getSessionCpu: 1.03,
  getSessionRps: 0.95,
  deliveryP99Ms: 1000,
};

/** A webhook can be given up for lost after this long (the service retries a failed try after 5 s, then 30 s). */
const DELIVERY_WAIT_MS = 60_000;

// ---- the receiver ------------------------------------------------------------------------------------------

/** Starts lib/webhook-receiver.mjs in a process of its own; answers { url, pid, take(), waitFor(ids), stop() }. */
async function startReceiver(secret, logFile) {
  const fd = openSync(logFile, "w");
  const child = fork(fileURLToPath(new URL("./webhook-receiver.mjs", import.meta.url)), [], {
    env: { ...process.env, RECEIVER_SECRET: secret },
    stdio: ["ignore", fd, fd, "ipc"],
  });
  closeSync(fd);
  let exited = null;
  const pending = new Set();
  child.once("exit", (code, signal) => {
    exited = { code, signal };
    for (const reject of pending) reject(new Error(`the webhook receiver exited (${JSON.stringify(exited)}); see ${logFile}`));
  });
  const port = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the webhook receiver did not start; see ${logFile}`)), 30_000);
    child.once("message", (message) => {
      clearTimeout(timer);
      resolve(message.port);
    });
    child.once("exit", () => reject(new Error(`the webhook receiver exited at start; see ${logFile}`)));
  });
  let ref = 0;
  const ask = (message) =>
    new Promise((resolve, reject) => {
      if (exited) return reject(new Error(`the webhook receiver exited (${JSON.stringify(exited)}); see ${logFile}`));
      const id = ++ref;
      const onMessage = (answer) => {
        if (answer.reply !== id) return;
        child.off("message", onMessage);
        pending.delete(reject);
        resolve(answer);
      };
      pending.add(reject);
      child.on("message", onMessage);
      child.send({ ...message, ref: id });
    });
  return {
    url: `http://127.0.0.1:${port}/hooks/gatehouse`,
    pid: child.pid,
    /** The deliveries accepted since the last take, and the refused ones' reasons. */
    take: () => ask({ cmd: "take" }),
    /** Resolves once every id was received since the last take, or after timeoutMs: { done, missing }. */
    waitFor: (ids, timeoutMs = DELIVERY_WAIT_MS) => ask({ cmd: "wait", ids, timeoutMs }),
    async stop() {
      if (exited) return;
      const gone = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await gone;
    },
  };
}

// ---- the event table, read by the driver ---------------------------------------------------------------------

/** Reads the service's event table directly: what was committed, to check every event was delivered. */
async function openEventTable(database, { sqliteFile, url }) {
  if (database === "sqlite") {
    const { default: Database } = await import("better-sqlite3");
    const db = new Database(sqliteFile, { readonly: true, fileMustExist: true });
    const after = db.prepare('SELECT seq, id, type, "userId" AS "userId" FROM "event" WHERE seq > ? ORDER BY seq');
    const max = db.prepare('SELECT coalesce(max(seq), 0) AS seq FROM "event"');
    return {
      eventsAfter: async (seq) => after.all(seq).map((r) => ({ ...r, seq: Number(r.seq) })),
      maxSeq: async () => Number(max.get().seq),
      close: async () => db.close(),
    };
  }
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    eventsAfter: async (seq) =>
      (await client.query('SELECT seq, id, type, "userId" FROM "event" WHERE seq > $1 ORDER BY seq', [seq])).rows.map((r) => ({
        ...r,
        seq: Number(r.seq),
      })),
    maxSeq: async () => Number((await client.query('SELECT coalesce(max(seq), 0) AS seq FROM "event"')).rows[0].seq),
    close: () => client.end(),
  };
}

/** Rows of the event table of a database (0 when the table is not there). */
async function countEvents(database, { sqliteFile, url }) {
  try {
    const table = await openEventTable(database, { sqliteFile, url });
    try {
      return (await table.eventsAfter(0)).length;
    } finally {
      await table.close();
    }
  } catch (error) {
    if (/no such table|does not exist/.test(error.message)) return 0;
    throw error;
  }
}

// ---- delivery latency ----------------------------------------------------------------------------------------

function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/**
 * Checks the deliveries of the events committed after `seq` once the service is idle (every request it was still
 * answering has committed): each must have arrived, verified, at the receiver. Latency: arrival (the receiver's
 * clock) minus the event's time in the body (`timestamp`, the event row's createdAt in milliseconds, taken just
 * before the statement that commits it); a repeat counts once, at its first arrival, and is reported.
 */
async function deliveredSince(ctx, seq) {
  const { server, receiver, table, seen } = ctx;
  await settle(server.pid);
  const expected = await table.eventsAfter(seq);
  const wait = await receiver.waitFor(expected.map((e) => e.id));
  const { records, invalid } = await receiver.take();
  const first = new Map();
  let duplicates = 0;
  for (const record of records) {
    if (first.has(record.id) || seen.has(record.id)) duplicates++;
    else first.set(record.id, record);
    seen.add(record.id);
  }
  const expectedIds = new Set(expected.map((e) => e.id));
  const latencies = Float64Array.from(
    expected.filter((e) => first.has(e.id)).map((e) => first.get(e.id).receivedAt - first.get(e.id).createdAt),
  ).sort();
  const byType = {};
  for (const e of expected) byType[e.type] = (byType[e.type] ?? 0) + 1;
  const arrivals = [...first.values()].filter((r) => expectedIds.has(r.id));
  const spanSeconds = arrivals.length
    ? (Math.max(...arrivals.map((r) => r.receivedAt)) - Math.min(...arrivals.map((r) => r.createdAt))) / 1000
    : null;
  return {
    /** Each event's time and arrival, in commit order (results/events-*-deliveries.json). */
    timeline: expected.map((e) => [e.seq, e.type, first.get(e.id)?.createdAt ?? null, first.get(e.id)?.receivedAt ?? null, first.get(e.id)?.attemptAt ?? null]),
    events: expected.length,
    byType,
    delivered: expected.filter((e) => first.has(e.id)).length,
    missing: wait.done ? 0 : expected.filter((e) => !first.has(e.id)).length,
    duplicates,
    /** Deliveries of events outside this window (none expected: each window waits for the one before). */
    unexpected: [...first.keys()].filter((id) => !expectedIds.has(id)).length,
    invalid: invalid.length,
    invalidReasons: [...new Set(invalid)],
    p50: percentile(latencies, 50),
    p90: percentile(latencies, 90),
    p99: percentile(latencies, 99),
    max: latencies.length ? latencies[latencies.length - 1] : null,
    mean: latencies.length ? Math.round((latencies.reduce((a, b) => a + b, 0) / latencies.length) * 10) / 10 : null,
    spanSeconds,
    expected,
  };
}

/** The delivery summary without the event list (what results/latest.json keeps). */
const slim = ({ expected: _expected, timeline: _timeline, ...rest }) => rest;

const briefDelivery = (d) =>
  `${d.delivered} of ${d.events} events delivered${d.missing ? `, ${d.missing} MISSING` : ""}${d.duplicates ? `, ${d.duplicates} repeated` : ""}` +
  `${d.invalid ? `, ${d.invalid} refused by the receiver (${d.invalidReasons.join("; ")})` : ""}; after the event's time: ` +
  `p50 ${fmtMs(d.p50)}, p99 ${fmtMs(d.p99)}, max ${fmtMs(d.max)}`;

// ---- where a load's CPU went, thread by thread ---------------------------------------------------------------

/** CPU ticks (user + system) of each thread of a process, by thread id. */
function threadTicks(pid) {
  const ticks = new Map();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks.set(tid, Number(fields[11]) + Number(fields[12]));
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return ticks;
}

/**
 * h.measure, with the server's CPU per request split by thread: the main thread (the event loop), the `workers`
 * busiest other threads (for a password load, the hash workers: one per core) and all the rest (V8's platform
 * threads: garbage collection and compilation; SQLite's checkpointer; libuv's pool), in µs per answered request.
 */
async function measureByThread(h, server, opts, run, workers = 0) {
  const before = threadTicks(server.pid);
  const result = await h.measure(server, opts, run);
  const after = threadTicks(server.pid);
  const per = (ticks) => (result.ok ? Math.round((ticks * 10_000) / result.ok) : null);
  const others = [...after]
    .filter(([tid]) => tid !== String(server.pid))
    .map(([tid, t]) => t - (before.get(tid) ?? 0))
    .sort((a, b) => b - a);
  const sum = (list) => list.reduce((a, b) => a + b, 0);
  result.threadsCpuUs = {
    main: per((after.get(String(server.pid)) ?? 0) - (before.get(String(server.pid)) ?? 0)),
    ...(workers ? { busiest: per(sum(others.slice(0, workers))) } : {}),
    rest: per(sum(others.slice(workers))),
  };
  return result;
}

// ---- loads ---------------------------------------------------------------------------------------------------

/**
 * `amount` POSTs in all from `connections` connections, as fast as the service answers them (autocannon spreads the
 * amount over the connections); connection i sends headersOf(i), each request a fresh body.
 */
function runAmountLoad({ url, path, connections, amount, headersOf, makeBody, timeout = 30 }) {
  const latencies = [];
  const statuses = {};
  let slot = 0;
  let lastAnswer = null;
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const instance = autocannon(
      {
        url,
        connections,
        amount,
        timeout,
        requests: [{ method: "POST", path, setupRequest: (request) => ({ ...request, body: makeBody() }) }],
        setupClient(client) {
          client.setHeaders(headersOf(slot++));
        },
      },
      (error, result) => {
        if (error) return reject(error);
        // To the last answer: autocannon calls back at its next one-second tick.
        const seconds = ((lastAnswer ?? performance.now()) - started) / 1000;
        const sorted = Float64Array.from(latencies).sort();
        const ok = latencies.length;
        const total = Object.values(statuses).reduce((a, b) => a + b, 0);
        resolve({
          seconds: Math.round(seconds * 100) / 100,
          ok,
          non2xx: total - ok,
          statuses,
          errors: result.errors,
          timeouts: result.timeouts,
          rps: Math.round((ok / seconds) * 10) / 10,
          p50: percentile(sorted, 50),
          p99: percentile(sorted, 99),
          max: sorted.length ? sorted[sorted.length - 1] : null,
          stalled: [],
        });
      },
    );
    instance.on("response", (_client, statusCode, _bytes, responseTime) => {
      lastAnswer = performance.now();
      statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    });
  });
}

/** Signs `count` new users up (8 at a time); answers the session cookie each sign-up set. */
async function signUpSessions(h, base, prefix, count) {
  const cookies = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < count) {
        const i = next++;
        const response = await h.post(base, "/api/auth/sign-up/email", { name: "Bench User", email: `${prefix}-${i}@bench.example`, password: h.password });
        const cookie = h.cookieOf(response);
        if (!cookie) throw new Error("sign-up set no session cookie");
        cookies[i] = cookie;
      }
    }),
  );
  return cookies;
}

const median = (values) => {
  const sorted = values.filter((v) => v !== null && v !== undefined && Number.isFinite(v)).sort((a, b) => a - b);
  if (!sorted.length) return null;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const cpuOf = (r) => (r?.serverCpuUs ? r.serverCpuUs.user + r.serverCpuUs.system : null);

/** What a run keeps in results/latest.json. */
const runSummary = (r) => ({
  seconds: r.seconds,
  rps: r.rps,
  ok: r.ok,
  p50: r.p50,
  p99: r.p99,
  serverCpuUs: r.serverCpuUs,
  serverMainThreadCpuUs: r.serverMainThreadCpuUs,
  cpuShare: r.cpuShare,
  non2xx: r.non2xx,
  errors: r.errors,
  timeouts: r.timeouts,
  statuses: r.statuses,
  ...(r.threadsCpuUs ? { threadsCpuUs: r.threadsCpuUs } : {}),
  ...(r.failures ? { failed: r.failed, failures: r.failures } : {}),
});

// ---- the part ------------------------------------------------------------------------------------------------

/**
 * One database. Two Gatehouse processes side by side, each on its own fresh database, with the main loads' options
 * (h.spawnSpec) and new-device mail off: `off` with events and webhooks off, `on` with events (the audit log) on and
 * one webhook endpoint (from the configuration file, every event type) pointing at the receiver, a process of its
 * own. Then: the idle CPU of both; get-session and sign-in loads on each in interleaved pairs (off, on, then on,
 * off, ...), with every webhook of each `on` run checked; 1,000 profile updates on each; and on `on`, the delivery
 * latency of sign-ups at the hash limit for the load's duration and of the profile updates.
 *
 * h: the harness of run.mjs: config, log, work, password, runTag, spawnSpec, startTarget, measure, brief,
 *    hashLimit, seedUser, getSessionLoad, signInLoad, post, postHeaders, cookieOf, logDir, pgAdminUrl.
 */
export async function benchEvents(database, h) {
  const { config, log } = h;
  const out = { database, pairs: EVENTS_CONFIG.pairs, updatesSent: EVENTS_CONFIG.updates };
  const secret = `whsec_${randomBytes(32).toString("base64")}`;
  const receiver = await startReceiver(secret, join(h.logDir, `webhook-receiver-${database}.log`));
  const servers = {};
  const stores = {};
  let table = null;
  // [seq, type, event time, arrival, the try's webhook-timestamp] of each event, for a look at where a tail comes from.
  const timelines = {};
  try {
    for (const [index, mode] of ["off", "on"].entries()) {
      const dir = join(h.work, `events-${database}-${mode}`);
      mkdirSync(dir, { recursive: true });
      const sqliteFile = join(dir, "bench.db");
      let databaseUrl = `sqlite://${sqliteFile}`;
      if (database === "postgres") {
        const created = await recreateDatabase(h.pgAdminUrl, EVENTS_PG_DATABASES[index]);
        databaseUrl = created.url;
        out.postgresVersion = created.version;
      }
      stores[mode] = { sqliteFile, url: databaseUrl };
      const port = await freePort();
      const spec = h.spawnSpec({ port, databaseUrl, cookieCache: false, dir });
      // The main loads' options, and this part's: new-device mail off in both (it is no part of the events).
      const optionsFile = spec.env.GATEHOUSE_CONFIG;
      const options = JSON.parse(readFileSync(optionsFile, "utf8"));
      options.newDeviceEmail = { enabled: false };
      if (mode === "off") {
        options.events = { enabled: false };
        options.webhooks = { enabled: false };
      } else {
        options.events = { enabled: true };
        options.webhooks = {
          enabled: true,
          // The receiver listens on 127.0.0.1.
          allowPrivateTargets: true,
          endpoints: [{ url: receiver.url, secret, description: "bench receiver" }],
        };
      }
      writeFileSync(optionsFile, JSON.stringify(options));
      // Another build of the `on` service (a change of the dispatcher, say) against the same `off` one.
      if (mode === "on" && process.env.BENCH_EVENTS_ON_LAUNCHER) spec.command = process.env.BENCH_EVENTS_ON_LAUNCHER;
      log(`Gatehouse events ${mode} on ${database}: starting`);
      servers[mode] = await h.startTarget(`gatehouse-events-${database}-${mode}`, spec, port);
      servers[mode].mode = mode;
    }
    const { off, on } = servers;
    table = await openEventTable(database, stores.on);
    const ctx = { server: on, receiver, table, seen: new Set() };

    // One user and a session per connection on each (as the main part seeds), then the first check of the wiring:
    // the `on` service's events so far (the sign-up's and the sign-ins') each delivered and verified.
    const email = `events-${h.runTag}-${database}@bench.example`;
    const cookies = { off: await h.seedUser(off.base, email), on: await h.seedUser(on.base, email) };
    const seeded = await deliveredSince(ctx, 0);
    log(`  seeding: ${briefDelivery(seeded)}`);
    if (seeded.events === 0 || seeded.missing || seeded.invalid) throw new Error(`the seeding's webhooks did not all arrive verified: ${briefDelivery(seeded)}`);
    out.seedCheck = slim(seeded);

    // Idle: both services doing nothing for the load's duration (the `on` one looks at the outbox every 100 ms).
    await settle([off.pid, on.pid]);
    const idleBefore = { off: cpuTimes(off.pid), on: cpuTimes(on.pid) };
    const idleStart = Date.now();
    await sleep(config.duration * 1000);
    const idleSeconds = (Date.now() - idleStart) / 1000;
    out.idleCpuMsPerSecond = {};
    for (const mode of ["off", "on"]) {
      const now = cpuTimes(servers[mode].pid);
      const ticks = now.user + now.system - idleBefore[mode].user - idleBefore[mode].system;
      out.idleCpuMsPerSecond[mode] = Math.round((ticks * 10 * 10) / idleSeconds) / 10;
    }
    log(`  idle for ${idleSeconds.toFixed(0)} s: server CPU off ${out.idleCpuMsPerSecond.off} ms/s, on ${out.idleCpuMsPerSecond.on} ms/s`);
    out.rssIdleMb = { off: memoryOf(off.pid).rssMb, on: memoryOf(on.pid).rssMb };

    // Interleaved pairs: off then on, on then off, ... (each order as often, but for an odd count).
    const order = (i) => (i % 2 === 0 ? [off, on] : [on, off]);
    for (const server of [off, on]) await runLoad(h.getSessionLoad(server.base, cookies[server.mode], { duration: config.warmup }));
    out.getSession = { off: [], on: [] };
    for (let i = 0; i < EVENTS_CONFIG.pairs; i++) {
      for (const server of order(i)) {
        await settle(server.pid);
        const r = await h.measure(server, h.getSessionLoad(server.base, cookies[server.mode]));
        out.getSession[server.mode].push(runSummary(r));
        log(`  get-session, events ${server.mode}: ${h.brief(r)}`);
      }
    }
    out.signIn = { off: [], on: [] };
    out.signInDeliveries = [];
    for (let i = 0; i < EVENTS_CONFIG.pairs; i++) {
      for (const server of order(i)) {
        await settle(server.pid);
        const seq = server === on ? await table.maxSeq() : null;
        const r = await measureByThread(h, server, h.signInLoad(server.base, email), undefined, availableParallelism());
        out.signIn[server.mode].push(runSummary(r));
        log(`  sign-in, events ${server.mode}: ${h.brief(r)}`);
        if (server === on) {
          // Each run's webhooks arrive before the next run starts (and are checked).
          const delivered = await deliveredSince(ctx, seq);
          out.signInDeliveries.push(slim(delivered));
          log(`    its webhooks: ${briefDelivery(delivered)}`);
        }
      }
    }

    // Profile updates: 32 users signed up on each (a session each), then the updates, off then on.
    const updateCookies = {};
    const setupSeq = await table.maxSeq();
    for (const server of [off, on]) {
      updateCookies[server.mode] = await signUpSessions(h, server.base, `evup-${h.runTag}-${database}-${server.mode}`, config.connections);
    }
    // Their sign-ups' webhooks arrive (checked) before the updates start.
    out.updateSetup = slim(await deliveredSince(ctx, setupSeq));
    let name = 0;
    const updateLoad = (server) => ({
      url: server.base,
      path: "/api/auth/update-user",
      connections: config.connections,
      amount: EVENTS_CONFIG.updates,
      headersOf: (i) => ({ ...h.postHeaders(server.base), cookie: updateCookies[server.mode][i % config.connections] }),
      makeBody: () => JSON.stringify({ name: `Bench Update ${name++}` }),
    });
    out.updates = {};
    for (const server of [off, on]) {
      await settle(server.pid);
      const seq = await table.maxSeq();
      const r = await measureByThread(h, server, updateLoad(server), runAmountLoad);
      out.updates[server.mode] = runSummary(r);
      log(`  ${EVENTS_CONFIG.updates} profile updates, events ${server.mode}: ${h.brief(r)}`);
      if (server === on) {
        const delivered = await deliveredSince(ctx, seq);
        delivered.answered = r.ok;
        delivered.answeredWithoutEvent = Math.max(0, r.ok - (delivered.byType["user.updated"] ?? 0));
        out.updateDelivery = slim(delivered);
        timelines.updates = delivered.timeline;
        log(`    webhooks of the updates: ${briefDelivery(delivered)}`);
      }
    }

    // Sign-ups at the hash limit on `on` (each a new address), with the hash limit measured before and after.
    await settle(on.pid);
    out.hashLimitBeforeSignUp = await h.hashLimit();
    const seq = await table.maxSeq();
    const userIds = [];
    let n = 0;
    const receiverBefore = cpuTimes(receiver.pid);
    const signUps = await measureByThread(
      h,
      on,
      {
        name: "sign-up",
        url: on.base,
        connections: config.connections,
        duration: config.duration,
        timeout: 60,
        steps: [
          {
            name: "sign-up/email",
            method: "POST",
            path: "/api/auth/sign-up/email",
            headers: h.postHeaders(on.base),
            build: () => ({
              body: JSON.stringify({ name: "Bench User", email: `evsu-${h.runTag}-${database}-${n++}@bench.example`, password: h.password }),
            }),
            accept(status, body) {
              if (status !== 200) return `sign-up/email ${status}`;
              const id = JSON.parse(body)?.user?.id;
              if (!id) return "sign-up/email: no user";
              userIds.push(id);
              return true;
            },
          },
        ],
      },
      runFlowLoad,
      availableParallelism(),
    );
    out.signUps = runSummary(signUps);
    log(`  sign-ups at the hash limit, events on: ${h.brief(signUps)}`);
    const delivered = await deliveredSince(ctx, seq);
    const receiverAfter = cpuTimes(receiver.pid);
    // Every answered sign-up committed its two events (user.created and the sign-in's), each delivered.
    const withEvent = new Map();
    for (const e of delivered.expected) {
      if (e.type === "user.created" || e.type === "sign_in.succeeded") withEvent.set(`${e.type} ${e.userId}`, e.id);
    }
    delivered.answered = userIds.length;
    delivered.answeredWithoutEvent = userIds.filter((id) => !withEvent.has(`user.created ${id}`) || !withEvent.has(`sign_in.succeeded ${id}`)).length;
    out.signUpDelivery = slim(delivered);
    timelines.signUps = delivered.timeline;
    log(`    webhooks of the sign-ups: ${briefDelivery(delivered)}`);
    out.receiverCpuUsPerDelivery = delivered.delivered
      ? Math.round(((receiverAfter.user + receiverAfter.system - receiverBefore.user - receiverBefore.system) * 10_000) / delivered.delivered)
      : null;
    out.hashLimitAfterSignUp = await h.hashLimit();
    out.hashLimitForSignUp = Math.round(((out.hashLimitBeforeSignUp + out.hashLimitAfterSignUp) / 2) * 10) / 10;

    out.rssPeakMb = { off: memoryOf(off.pid).hwmMb, on: memoryOf(on.pid).hwmMb };
    for (const server of [off, on]) {
      if (server.exited) throw new Error(`${server.name} exited during the run: ${JSON.stringify(server.exited)}`);
    }
    // Off means off: the service with events off wrote none.
    out.eventsWrittenOff = await countEvents(database, stores.off);
    if (out.eventsWrittenOff) throw new Error(`the service with events off wrote ${out.eventsWrittenOff} events`);
  } finally {
    writeFileSync(join(h.logDir, "..", `events-${database}-deliveries.json`), JSON.stringify(timelines) + "\n");
    await table?.close().catch(() => undefined);
    for (const server of Object.values(servers)) await server.stop();
    await receiver.stop();
  }
  return out;
}

// ---- targets and the table -------------------------------------------------------------------------------------

const DBS = [
  ["sqlite", "SQLite"],
  ["postgres", "PostgreSQL"],
];

const pct = (ratio) => `${ratio >= 1 ? "+" : "−"}${Math.abs((ratio - 1) * 100).toFixed(1)}%`;
const us = (v) => (v === null || v === undefined ? "–" : `${Math.round(v).toLocaleString("en-US")} µs`);

/** The medians a database's runs give: { signIn: { off, on }, signInMain, getSessionCpu, getSessionRps, signInRps }. */
function medians(d) {
  const of = (runs, f) => ({ off: median((runs?.off ?? []).map(f)), on: median((runs?.on ?? []).map(f)) });
  return {
    signInCpu: of(d.signIn, cpuOf),
    signInMain: of(d.signIn, (r) => r.serverMainThreadCpuUs),
    signInRps: of(d.signIn, (r) => r.rps),
    signInWorkers: of(d.signIn, (r) => r.threadsCpuUs?.busiest),
    signInRest: of(d.signIn, (r) => r.threadsCpuUs?.rest),
    getSessionCpu: of(d.getSession, cpuOf),
    getSessionMain: of(d.getSession, (r) => r.serverMainThreadCpuUs),
    getSessionRps: of(d.getSession, (r) => r.rps),
  };
}

/** A delivery run's verdict: p99 under the limit, every event delivered and verified, every answered request's event there. */
function deliveryTarget(d) {
  if (!d) return { value: "not measured", pass: null };
  const pass =
    d.p99 !== null && d.p99 < EVENTS_LIMITS.deliveryP99Ms && d.missing === 0 && d.invalid === 0 && !d.answeredWithoutEvent && d.delivered === d.events;
  const value =
    `p99 ${fmtMs(d.p99)} (${d.delivered.toLocaleString("en-US")} of ${d.events.toLocaleString("en-US")} events delivered` +
    `${d.missing ? `, ${d.missing} missing` : ""}${d.invalid ? `, ${d.invalid} refused` : ""}` +
    `${d.answeredWithoutEvent ? `, ${d.answeredWithoutEvent} answered requests without their events` : ""}, ${d.duplicates} repeated)`;
  return { value, pass };
}

/** Issue #17's bench targets, per database: { id, label, database, value, pass } (pass null: not measured). */
export function evaluateEventsTargets(results) {
  const out = [];
  for (const [db] of DBS) {
    const d = results.events?.[db];
    if (!d) continue;
    const push = (id, label, verdict) => out.push({ id, label, database: db, ...(d.error ? { value: "failed", pass: false } : verdict) });
    const m = d.error ? null : medians(d);
    const runs = `medians of ${d.pairs} interleaved runs each`;
    {
      const { off, on } = m?.signInCpu ?? {};
      push(
        "sign-in-cpu",
        `sign-in: server CPU per request with events, audit and one webhook on ≤ ${EVENTS_LIMITS.signInCpu} × off (${runs})`,
        off && on ? { value: `${pct(on / off)} (${us(on)} vs ${us(off)})`, ratio: on / off, pass: on / off <= EVENTS_LIMITS.signInCpu } : { value: "not measured", pass: null },
      );
    }
    {
      const cpu = m?.getSessionCpu ?? {};
      const rps = m?.getSessionRps ?? {};
      push(
        "get-session",
        `get-session unchanged: server CPU per request ≤ ${EVENTS_LIMITS.getSessionCpu} × off and req/s ≥ ${EVENTS_LIMITS.getSessionRps} × off (${runs})`,
        cpu.off && cpu.on && rps.off && rps.on
          ? {
              value: `CPU ${pct(cpu.on / cpu.off)} (${us(cpu.on)} vs ${us(cpu.off)}), req/s ${pct(rps.on / rps.off)} (${fmtRps(rps.on)} vs ${fmtRps(rps.off)})`,
              pass: cpu.on / cpu.off <= EVENTS_LIMITS.getSessionCpu && rps.on / rps.off >= EVENTS_LIMITS.getSessionRps,
            }
          : { value: "not measured", pass: null },
      );
    }
    push(
      "delivery-sign-up",
      `every webhook delivered, p99 < ${fmtMs(EVENTS_LIMITS.deliveryP99Ms)} after its event, while sign-ups run at the hash limit`,
      deliveryTarget(d.signUpDelivery),
    );
    push(
      "delivery-updates",
      `every webhook delivered, p99 < ${fmtMs(EVENTS_LIMITS.deliveryP99Ms)} after its event, ${(d.updatesSent ?? EVENTS_CONFIG.updates).toLocaleString("en-US")} profile updates as fast as the service takes them`,
      deliveryTarget(d.updateDelivery),
    );
  }
  return out;
}

function markdownTable({ header, rows }) {
  const line = (cells) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

const offOn = (pair, fmt) => (pair?.off != null && pair?.on != null ? `${fmt(pair.off)} → ${fmt(pair.on)} (${pct(pair.on / pair.off)})` : "–");
const latencies = (d) => (d ? `${fmtMs(d.p50)} / ${fmtMs(d.p99)} / ${fmtMs(d.max)}` : "–");
const counted = (d) =>
  d
    ? `${d.delivered.toLocaleString("en-US")} of ${d.events.toLocaleString("en-US")}` +
      `${d.missing ? `, **${d.missing} missing**` : ""}${d.duplicates ? `, ${d.duplicates} repeated` : ", none repeated"}` +
      `${d.invalid ? `, ${d.invalid} refused by the receiver` : ""}`
    : "–";

export function renderEventsMarkdown(results) {
  const mach = results.machine;
  const c = results.config;
  const dbs = DBS.filter(([db]) => results.events?.[db]);
  const pg = results.events?.postgres?.postgresVersion;
  const row = (label, cell) => [label, ...dbs.map(([db]) => (results.events[db].error ? "failed" : cell(results.events[db], medians(results.events[db]))))];
  const each = (runs, f) => (runs ? `${runs.off.map(f).join(", ")} / ${runs.on.map(f).join(", ")}` : "–");
  const table = {
    header: ["figure (events off → on)", ...dbs.map(([, l]) => `Gatehouse, ${l}`)],
    rows: [
      row("get-session req/s, cookie cache off (median)", (d, m) => offOn(m.getSessionRps, fmtRps)),
      row("get-session server CPU per request (median)", (d, m) => offOn(m.getSessionCpu, us)),
      row("get-session server CPU per request, each run: off / on", (d) => each(d.getSession, (r) => cpuOf(r))),
      row("sign-in req/s (median)", (d, m) => offOn(m.signInRps, fmtRps)),
      row("sign-in server CPU per request (median)", (d, m) => offOn(m.signInCpu, us)),
      row("sign-in server CPU per request, each run: off / on", (d) => each(d.signIn, (r) => cpuOf(r)?.toLocaleString("en-US"))),
      row("of which the main thread (the event loop; the rest is the hash workers), median", (d, m) =>
        m.signInMain.off != null && m.signInMain.on != null ? `${us(m.signInMain.off)} → ${us(m.signInMain.on)} (${m.signInMain.on >= m.signInMain.off ? "+" : "−"}${us(Math.abs(m.signInMain.on - m.signInMain.off))})` : "–",
      ),
      row("… the hash workers (the busiest threads, one per core) / all other threads, median", (d, m) =>
        m.signInWorkers.off != null ? `${us(m.signInWorkers.off)} → ${us(m.signInWorkers.on)} / ${us(m.signInRest.off)} → ${us(m.signInRest.on)}` : "–",
      ),
      row("profile updates: updates/s", (d) => offOn({ off: d.updates?.off?.rps, on: d.updates?.on?.rps }, fmtRps)),
      row("profile updates: server CPU per update", (d) => offOn({ off: cpuOf(d.updates?.off), on: cpuOf(d.updates?.on) }, us)),
      row("server CPU while idle, off / on", (d) => (d.idleCpuMsPerSecond ? `${d.idleCpuMsPerSecond.off} / ${d.idleCpuMsPerSecond.on} ms per s` : "–")),
      row("sign-ups at the hash limit: sign-ups/s (hash limit before / after)", (d) => `${fmtRps(d.signUps?.rps)} (${d.hashLimitBeforeSignUp ?? "–"} / ${d.hashLimitAfterSignUp ?? "–"})`),
      row("… their webhooks: delivered of committed", (d) => counted(d.signUpDelivery)),
      row("… after the event's time: p50 / p99 / max", (d) => latencies(d.signUpDelivery)),
      row(`${EVENTS_CONFIG.updates.toLocaleString("en-US")} profile updates: their webhooks delivered of committed`, (d) => counted(d.updateDelivery)),
      row("… after the event's time: p50 / p99 / max", (d) => latencies(d.updateDelivery)),
      row("… from the first event to the last delivery", (d) => (d.updateDelivery?.spanSeconds != null ? `${d.updateDelivery.spanSeconds.toFixed(2)} s (updates took ${d.updates?.on?.seconds ?? "–"} s)` : "–")),
      row("sign-in runs' webhooks: delivered of committed; worst p99", (d) => {
        const runs = d.signInDeliveries ?? [];
        if (!runs.length) return "–";
        const sum = (k) => runs.reduce((a, r) => a + r[k], 0);
        return `${sum("delivered").toLocaleString("en-US")} of ${sum("events").toLocaleString("en-US")}${sum("missing") ? `, **${sum("missing")} missing**` : ""}; ${fmtMs(Math.max(...runs.map((r) => r.p99 ?? 0)))}`;
      }),
      row("receiver CPU per delivery (its own process)", (d) => us(d.receiverCpuUsPerDelivery)),
      row("RSS idle / peak, off; on", (d) => (d.rssIdleMb ? `${Math.round(d.rssIdleMb.off)} / ${Math.round(d.rssPeakMb?.off)} MB; ${Math.round(d.rssIdleMb.on)} / ${Math.round(d.rssPeakMb?.on)} MB` : "–")),
    ],
  };
  const targets = results.eventsTargets ?? [];
  const mark = (t) => (!t || t.pass === null ? "–" : `${t.pass ? "**PASS**" : "**FAIL**"} ${t.value}`);
  const labels = [...new Set(targets.map((t) => t.label))];
  const pairs = dbs.map(([db]) => results.events[db].pairs).find(Boolean) ?? EVENTS_CONFIG.pairs;
  const lines = [
    `Run of ${results.date.slice(0, 16).replace("T", " ")} UTC. Machine: ${mach.cpu}, ${mach.cores} cores, ${mach.memoryGiB} GiB, ` +
      `Node ${mach.node}${pg ? `, PostgreSQL ${pg}` : ""}; load average ${mach.loadAverageAtStart[0]} at the start, ` +
      `${mach.loadAverageAtEnd[0]} at the end. Gatehouse ${results.versions.gatehouse}, autocannon ${results.versions.autocannon}. ` +
      `${c.duration} s per load, ${c.connections} connections; get-session and sign-in in ${pairs} interleaved pairs ` +
      `(off, on; on, off; …), get-session after a ${c.warmup} s warm-up.`,
    "",
    markdownTable(table),
    "",
    markdownTable({
      header: ["target (Gatehouse)", ...dbs.map(([, l]) => l)],
      rows: labels.map((label) => [label, ...dbs.map(([db]) => mark(targets.find((t) => t.label === label && t.database === db)))]),
    }),
  ];
  const notes = results.errors.filter((e) => e.startsWith("events"));
  for (const [db, label] of dbs) {
    const d = results.events[db];
    const check = (what, r) => {
      if (r && (r.non2xx || r.errors || r.timeouts)) notes.push(`${label}, ${what}: ${r.non2xx} non-2xx (${JSON.stringify(r.failures ?? r.statuses)}), ${r.errors} errors, ${r.timeouts} timeouts`);
    };
    for (const mode of ["off", "on"]) {
      (d.getSession?.[mode] ?? []).forEach((r, i) => check(`get-session ${mode} #${i + 1}`, r));
      (d.signIn?.[mode] ?? []).forEach((r, i) => check(`sign-in ${mode} #${i + 1}`, r));
      check(`profile updates ${mode}`, d.updates?.[mode]);
    }
    check("sign-ups", d.signUps);
  }
  if (notes.length) lines.push("", "⚠ Failed requests in this run:", "", ...notes.map((n) => `- ${n}`));
  return lines.join("\n");
}
