import { readFileSync, writeFileSync } from "node:fs";

const DBS = [
  ["sqlite", "SQLite"],
  ["postgres", "PostgreSQL"],
];
const SERVERS = [
  ["gatehouse", "Gatehouse"],
  ["better-auth", "Better Auth"],
];

// ---- formatting ------------------------------------------------------------------------------------------

export function fmtRps(v) {
  if (v === null || v === undefined || Number.isNaN(v)) return "–";
  return v >= 100 ? Math.round(v).toLocaleString("en-US") : v.toFixed(1);
}

export function fmtMs(v) {
  if (v === null || v === undefined || Number.isNaN(v)) return "–";
  if (v >= 1000) return `${(v / 1000).toFixed(2)} s`;
  if (v >= 100) return `${Math.round(v)} ms`;
  if (v >= 10) return `${v.toFixed(1)} ms`;
  return `${v.toFixed(2)} ms`;
}

const fmtCpu = (r) => (r?.serverCpuUs ? `${r.serverCpuUs.user + r.serverCpuUs.system} µs` : "–");
const fmtMb = (v) => (v === null || v === undefined ? "–" : `${Math.round(v)} MB`);
// "≥": requests still unanswered when the load stopped were counted with the time they had waited (a lower bound).
const pair = (r) => (r ? `${fmtMs(r.p50)} / ${r.stalled?.length ? "≥ " : ""}${fmtMs(r.p99)}` : "–");
const warn = (r) => (r && (r.non2xx || r.errors || r.timeouts) ? " ⚠" : "");

// ---- targets ---------------------------------------------------------------------------------------------

/** The issue's targets for Gatehouse, each per database: { id, label, database, value, pass } (pass null = not measured). */
export function evaluateTargets(results) {
  const out = [];
  const hash = results.hashLimit?.best;
  const sqliteCeiling = results.ceiling?.rps;
  for (const [db] of DBS) {
    const gh = results.servers.gatehouse?.[db];
    const ba = results.servers["better-auth"]?.[db];
    if (!gh && !ba) continue;
    const ratio = (a, b, threshold, label, id, unit) => {
      if (!a || !b) return out.push({ id, label, database: db, value: "not measured", pass: null });
      const r = a / b;
      const value = unit === "x" ? `${r.toFixed(1)}× (${fmtRps(a)} vs ${fmtRps(b)})` : `${Math.round(r * 100)}% (${fmtRps(a)} of ${fmtRps(b)})`;
      out.push({ id, label, database: db, ratio: r, value, pass: r >= threshold });
    };
    ratio(gh?.getSession?.rps, ba?.getSession?.rps, 10, "get-session ≥ 10× Better Auth's req/s (cookie cache off)", "vs-peer", "x");
    ratio(gh?.getSessionCached?.rps, ba?.getSessionCached?.rps, 10, "get-session ≥ 10× Better Auth's req/s (cookie cache on)", "vs-peer-cached", "x");
    // Each database against the bare server on the same database (SQLite's when PostgreSQL's was not measured).
    const ceiling = db === "postgres" ? (results.ceilingPostgres?.rps ?? sqliteCeiling) : sqliteCeiling;
    ratio(gh?.getSession?.rps, ceiling, 0.4, "get-session ≥ 40% of the bare server's req/s (cookie cache off)", "vs-ceiling", "%");
    ratio(gh?.getSessionCached?.rps, ceiling, 0.4, "get-session ≥ 40% of the bare server's req/s (cookie cache on)", "vs-ceiling-cached", "%");
    // Each compared with the hash limit measured right before it (the machine's other load moves both alike).
    ratio(gh?.signIn?.rps, gh?.hashLimitForSignIn ?? hash, 0.9, "sign-in ≥ 90% of the hash limit (mean of just before and just after)", "sign-in", "%");
    ratio(gh?.signUp?.rps, gh?.hashLimitForSignUp ?? hash, 0.9, "sign-up ≥ 90% of the hash limit (mean of just before and just after)", "sign-up", "%");
    for (const [key, id, what] of [
      ["stormSignIn", "storm-sign-in", "sign-in"],
      ["stormSignUp", "storm-sign-up", "sign-up"],
    ]) {
      const reads = gh?.[key]?.reads;
      const label = `get-session p99 < 10 ms during a ${what} storm`;
      if (!reads || reads.p99 === null) out.push({ id, label, database: db, value: "not measured", pass: null });
      else out.push({ id, label, database: db, value: fmtMs(reads.p99), pass: reads.p99 < 10 });
    }
  }
  return out;
}

// ---- tables ----------------------------------------------------------------------------------------------

function columns(results) {
  const cols = [];
  for (const [db, dbLabel] of DBS) {
    for (const [server, serverLabel] of SERVERS) {
      const data = results.servers[server]?.[db];
      if (data) cols.push({ label: `${serverLabel}, ${dbLabel}`, data });
    }
  }
  return cols;
}

function mainRows(results) {
  const cols = columns(results);
  const row = (label, cell) => [label, ...cols.map((c) => (c.data.error ? "failed" : cell(c.data)))];
  const storm = (s) =>
    s ? `${pair(s.reads)}${warn(s.reads)} (storm ${fmtRps(s.storm.rps)} req/s${warn(s.storm)})` : "–";
  return {
    header: ["figure", ...cols.map((c) => c.label)],
    rows: [
      row("get-session req/s, cookie cache off", (d) => fmtRps(d.getSession?.rps) + warn(d.getSession)),
      row("get-session p50 / p99, cookie cache off", (d) => pair(d.getSession)),
      row("get-session req/s, cookie cache on", (d) => fmtRps(d.getSessionCached?.rps) + warn(d.getSessionCached)),
      row("get-session p50 / p99, cookie cache on", (d) => pair(d.getSessionCached)),
      row("get-session server CPU per request (user + system), cache off / on", (d) => `${fmtCpu(d.getSession)} / ${fmtCpu(d.getSessionCached)}`),
      row("sign-in req/s (hash limit before / after; each the higher of both ways)", (d) => `${fmtRps(d.signIn?.rps)}${warn(d.signIn)} (${d.hashLimitBeforeSignIn ?? "–"} / ${d.hashLimitAfterSignIn ?? "–"})`),
      row("sign-in p50 / p99", (d) => pair(d.signIn)),
      row("sign-up req/s (hash limit before / after; each the higher of both ways)", (d) => `${fmtRps(d.signUp?.rps)}${warn(d.signUp)} (${d.hashLimitBeforeSignUp ?? "–"} / ${d.hashLimitAfterSignUp ?? "–"})`),
      row("sign-up p50 / p99", (d) => pair(d.signUp)),
      row("get-session p50 / p99 paced, no storm (the storms' baseline)", (d) => pair(d.pacedAlone) + warn(d.pacedAlone)),
      row("get-session p50 / p99 during a sign-in storm", (d) => storm(d.stormSignIn)),
      row("get-session p50 / p99 during a sign-up storm", (d) => storm(d.stormSignUp)),
      row("RSS idle / peak", (d) => `${fmtMb(d.rssIdleMb)} / ${fmtMb(d.rssPeakMb)}`),
    ],
  };
}

function targetRows(results) {
  const dbs = DBS.filter(([db]) => results.targets.some((t) => t.database === db));
  const labels = [...new Set(results.targets.map((t) => t.label))];
  const mark = (t) => (!t || t.pass === null ? "–" : `${t.pass ? "**PASS**" : "**FAIL**"} ${t.value}`);
  return {
    header: ["target (Gatehouse)", ...dbs.map(([, l]) => l)],
    rows: labels.map((label) => [
      label,
      ...dbs.map(([db]) => mark(results.targets.find((t) => t.label === label && t.database === db))),
    ]),
  };
}

/** The bare server under the storms' paced reads (the machine's own latency tail), when measured. */
const pacedNote = (c) => (c.paced ? `; paced like the storms' reads: p50 / p99 ${pair(c.paced)}${warn(c.paced)}` : "");

function limitRows(results) {
  const h = results.hashLimit;
  const c = results.ceiling;
  const cp = results.ceilingPostgres;
  return {
    header: ["machine limit", "figure"],
    rows: [
      [
        `password-hash limit: scrypt N=16384 r=16 p=1, 64-byte key, ${h?.threads ?? "–"} threads`,
        h
          ? h.plain && h.tuned
            ? `with the launcher's malloc settings: best ${h.tuned.best}, median ${h.tuned.median} hashes/s ` +
              `(${h.tuned.runs.join(", ")}); Node as it comes: best ${h.plain.best}, median ${h.plain.median} ` +
              `(${h.plain.runs.join(", ")}); ${h.plain.runs.length} measurements of ${h.seconds} s each; ` +
              `best = ${Math.round((1000 * h.threads) / h.best)} ms per hash per core`
            : `best ${h.best}, median ${h.median} hashes/s over ${h.runs.length} measurements of ${h.seconds} s ` +
              `(${h.runs.join(", ")}); best = ${Math.round((1000 * h.threads) / h.best)} ms per hash per core`
          : "–",
      ],
      [
        "bare node:http + one SQLite primary-key select (ceiling)",
        c ? `${fmtRps(c.rps)} req/s, p50 / p99 ${pair(c)}, server CPU ${fmtCpu(c)} per request${warn(c)}${pacedNote(c)}` : "–",
      ],
      [
        "bare node:http + one PostgreSQL primary-key select (ceiling, pool of 10, prepared)",
        cp ? `${fmtRps(cp.rps)} req/s, p50 / p99 ${pair(cp)}, server CPU ${fmtCpu(cp)} per request${warn(cp)}${pacedNote(cp)}` : "–",
      ],
    ],
  };
}

function markdownTable({ header, rows }) {
  const line = (cells) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

function problems(results) {
  // The admin and factors parts' failures are listed under their own tables.
  const notes = results.errors.filter((e) => !e.startsWith("admin") && !e.startsWith("factors"));
  const check = (where, r) => {
    if (r && (r.non2xx || r.errors || r.timeouts)) {
      notes.push(`${where}: ${r.non2xx} non-2xx (${JSON.stringify(r.statuses)}), ${r.errors} errors, ${r.timeouts} timeouts`);
    }
  };
  check("ceiling", results.ceiling);
  check("ceiling on PostgreSQL", results.ceilingPostgres);
  for (const [server, serverLabel] of SERVERS) {
    for (const [db, dbLabel] of DBS) {
      const d = results.servers[server]?.[db];
      if (!d) continue;
      const w = `${serverLabel}, ${dbLabel}`;
      check(`${w}, get-session`, d.getSession);
      check(`${w}, get-session (cookie cache on)`, d.getSessionCached);
      check(`${w}, sign-in`, d.signIn);
      check(`${w}, get-session paced, no storm`, d.pacedAlone);
      check(`${w}, sign-up`, d.signUp);
      check(`${w}, sign-in storm`, d.stormSignIn?.storm);
      check(`${w}, get-session during the sign-in storm`, d.stormSignIn?.reads);
      check(`${w}, sign-up storm`, d.stormSignUp?.storm);
      check(`${w}, get-session during the sign-up storm`, d.stormSignUp?.reads);
    }
  }
  return notes;
}

export function renderMarkdown(results) {
  const m = results.machine;
  const c = results.config;
  const pg = Object.values(results.servers)
    .flatMap((s) => Object.values(s))
    .find((d) => d.postgresVersion)?.postgresVersion;
  const shares = [results.ceiling, ...Object.values(results.servers).flatMap((srv) => Object.values(srv))
    .flatMap((d) => [d.getSession, d.getSessionCached, d.signIn, d.signUp])]
    .filter((r) => r?.cpuShare)
    .map((r) => r.cpuShare.other)
    .sort((a, b) => a - b);
  const contention = shares.length
    ? ` Other processes (PostgreSQL included) took ${shares[Math.floor((shares.length - 1) / 2)]}% of the machine's CPU during the median load, ${shares[shares.length - 1]}% at most.`
    : "";
  const lines = [
    `Run of ${results.date.slice(0, 16).replace("T", " ")} UTC, ${Math.round(results.durationSeconds / 60)} min in all. ` +
      `Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, Node ${m.node}` +
      `${pg ? `, PostgreSQL ${pg}` : ""}; load average ${m.loadAverageAtStart[0]} at the start, ${m.loadAverageAtEnd[0]} at the end. ` +
      `Gatehouse ${results.versions.gatehouse}, Better Auth ${results.versions.betterAuth}, autocannon ${results.versions.autocannon}. ` +
      `${c.duration} s per load after a ${c.warmup} s warm-up (get-session), ${c.connections} connections; ` +
      `during storms, get-session from ${c.stormReaders} connections at ${c.stormReadRate} req/s in all.` +
      contention,
    "",
    markdownTable(mainRows(results)),
    "",
    markdownTable(limitRows(results)),
    "",
    markdownTable(targetRows(results)),
  ];
  const notes = problems(results);
  if (notes.length) lines.push("", "⚠ Failed requests in this run:", "", ...notes.map((n) => `- ${n}`));
  return lines.join("\n");
}

// ---- the administrators' user list (the admin part) -----------------------------------------------------

/**
 * The list-users target: every request's p50 under 100 ms on PostgreSQL (SQLite: shown, not a target), checked at
 * each number of connections measured.
 */
export const ADMIN_P50_TARGET_MS = 100;

export function evaluateAdminTargets(results) {
  const out = [];
  for (const [db] of DBS) {
    const data = results.admin?.[db];
    if (!data) continue;
    for (const connections of results.config.adminConnections) {
      const label = `every list-users request p50 < ${ADMIN_P50_TARGET_MS} ms, ${connections} connection${connections === 1 ? "" : "s"}`;
      const measured = Object.values(data.queries ?? {})
        .map((q) => ({ label: q.label, ...q.byConnections?.[connections] }))
        .filter((r) => r.p50 !== null && r.p50 !== undefined);
      if (data.error || measured.length === 0) {
        out.push({ label, database: db, connections, value: data.error ? "failed" : "not measured", pass: data.error ? false : null });
        continue;
      }
      const worst = measured.reduce((a, b) => (b.p50 > a.p50 ? b : a));
      const failed = measured.some((r) => r.non2xx || r.errors || r.timeouts);
      out.push({
        label,
        database: db,
        connections,
        target: db === "postgres",
        value: `worst ${fmtMs(worst.p50)} (${worst.label})${failed ? ", with failed requests" : ""}`,
        pass: worst.p50 < ADMIN_P50_TARGET_MS && !failed,
      });
    }
  }
  return out;
}

export function renderAdminMarkdown(results) {
  const m = results.machine;
  const c = results.config;
  const dbs = [...DBS].reverse().filter(([db]) => results.admin?.[db]);
  const pg = results.admin?.postgres?.postgresVersion;
  const anyData = dbs.map(([db]) => results.admin[db]).find((d) => d.queries && Object.keys(d.queries).length);
  const seeded = dbs
    .map(([db, label]) => (results.admin[db].seedSeconds ? `${label} ${results.admin[db].seedSeconds} s` : null))
    .filter(Boolean)
    .join(", ");
  const conns = (n) => `${n} connection${n === 1 ? "" : "s"}`;
  const header = ["list-users request", "matching users"];
  for (const [, label] of dbs) for (const n of c.adminConnections) header.push(`${label}, ${conns(n)}: p50 / p99 (req/s)`);
  const rows = (anyData ? Object.entries(anyData.queries) : []).map(([key, q]) => {
    const cells = [q.label, q.total.toLocaleString("en-US")];
    for (const [db] of dbs) {
      for (const n of c.adminConnections) {
        const r = results.admin[db].queries?.[key]?.byConnections?.[n];
        cells.push(r ? `${pair(r)} (${fmtRps(r.rps)})${warn(r)}` : results.admin[db].error ? "failed" : "–");
      }
    }
    return cells;
  });
  const memory = dbs.map(([db, label]) => `${label} ${fmtMb(results.admin[db].rssIdleMb)} / ${fmtMb(results.admin[db].rssPeakMb)}`).join(", ");
  const mark = (t) => (!t || t.pass === null ? "–" : `${t.pass ? "**PASS**" : "**FAIL**"} ${t.value}${t.target ? "" : " (not a target)"}`);
  const targets = results.adminTargets ?? [];
  const targetLabels = [...new Set(targets.map((t) => t.label))];
  const lines = [
    `Run of ${results.date.slice(0, 16).replace("T", " ")} UTC. Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, ` +
      `Node ${m.node}${pg ? `, PostgreSQL ${pg}` : ""}; load average ${m.loadAverageAtStart[0]} at the start, ` +
      `${m.loadAverageAtEnd[0]} at the end. Gatehouse ${results.versions.gatehouse}, autocannon ${results.versions.autocannon}. ` +
      `${(anyData?.seededUsers ?? c.adminUsers).toLocaleString("en-US")} seeded users and the administrator` +
      `${seeded ? ` (seeding took ${seeded})` : ""}; each request loaded ${c.adminDuration} s from ` +
      `${c.adminConnections.map(conns).join(", then ")}, after a ${c.warmup} s warm-up. Server RSS idle / peak: ${memory}.`,
    "",
    markdownTable({ header, rows }),
    "",
    markdownTable({
      header: ["target", ...dbs.map(([, l]) => l)],
      rows: targetLabels.map((label) => [label, ...dbs.map(([db]) => mark(targets.find((t) => t.label === label && t.database === db)))]),
    }),
  ];
  const notes = [...results.errors.filter((e) => e.startsWith("admin"))];
  for (const [db, label] of dbs) {
    for (const q of Object.values(results.admin[db].queries ?? {})) {
      for (const [n, r] of Object.entries(q.byConnections ?? {})) {
        if (r.non2xx || r.errors || r.timeouts) {
          notes.push(`${label}, ${q.label}, ${conns(Number(n))}: ${r.non2xx} non-2xx (${JSON.stringify(r.statuses)}), ${r.errors} errors, ${r.timeouts} timeouts`);
        }
      }
    }
  }
  if (notes.length) lines.push("", "⚠ Failed requests in this run:", "", ...notes.map((n) => `- ${n}`));
  return lines.join("\n");
}

// ---- second factors and passkeys (the factors part) -------------------------------------------------------

/** Targets of issue #15: TOTP sign-in ≥ 90% of the hash limit, passkey sign-in ≥ 20× password sign-in, per database. */
export function evaluateFactorsTargets(results) {
  const out = [];
  for (const [db] of DBS) {
    const d = results.factors?.[db];
    if (!d) continue;
    const ratio = (a, b, threshold, label, id, unit) => {
      if (!a || !b) return out.push({ id, label, database: db, value: d.error ? "failed" : "not measured", pass: d.error ? false : null });
      const r = a / b;
      const value = unit === "x" ? `${r.toFixed(1)}× (${fmtRps(a)} vs ${fmtRps(b)})` : `${Math.round(r * 100)}% (${fmtRps(a)} of ${fmtRps(b)})`;
      out.push({ id, label, database: db, ratio: r, value, pass: r >= threshold });
    };
    ratio(d.totpSignIn?.rps, d.hashLimitForTotp, 0.9, "TOTP sign-in (both requests) ≥ 90% of the hash limit (mean of just before and just after)", "totp", "%");
    ratio(d.passkeySignIn?.rps, d.passwordSignIn?.rps, 20, "passkey sign-in (both requests) ≥ 20× the password sign-in rate", "passkey", "x");
  }
  return out;
}

export function renderFactorsMarkdown(results) {
  const m = results.machine;
  const c = results.config;
  const dbs = DBS.filter(([db]) => results.factors?.[db]);
  const pg = results.factors?.postgres?.postgresVersion;
  const row = (label, cell) => [label, ...dbs.map(([db]) => (results.factors[db].error ? "failed" : cell(results.factors[db])))];
  const cpu = (r) => fmtCpu(r);
  const table = {
    header: ["figure", ...dbs.map(([, l]) => `Gatehouse, ${l}`)],
    rows: [
      row("password sign-in req/s (hash limit before / after)", (d) => `${fmtRps(d.passwordSignIn?.rps)}${warn(d.passwordSignIn)} (${d.hashLimitBeforePassword ?? "–"} / ${d.hashLimitAfterPassword ?? "–"})`),
      row("password sign-in p50 / p99", (d) => pair(d.passwordSignIn)),
      row("TOTP sign-in, both requests: sign-ins/s (hash limit before / after)", (d) => `${fmtRps(d.totpSignIn?.rps)}${warn(d.totpSignIn)} (${d.hashLimitBeforeTotp ?? "–"} / ${d.hashLimitAfterTotp ?? "–"})`),
      row("TOTP sign-in p50 / p99 (both requests)", (d) => pair(d.totpSignIn)),
      row("passkey sign-in, both requests: sign-ins/s", (d) => `${fmtRps(d.passkeySignIn?.rps)}${warn(d.passkeySignIn)}`),
      row("passkey sign-in p50 / p99 (both requests)", (d) => pair(d.passkeySignIn)),
      row("server CPU per sign-in (user + system): password / TOTP / passkey", (d) => `${cpu(d.passwordSignIn)} / ${cpu(d.totpSignIn)} / ${cpu(d.passkeySignIn)}`),
      row("of which the main thread (the event loop; the rest is mostly the hash workers)", (d) => [d.passwordSignIn, d.totpSignIn, d.passkeySignIn].map((r) => (r?.serverMainThreadCpuUs != null ? `${r.serverMainThreadCpuUs} µs` : "–")).join(" / ")),
      row("users seeded through the routes (time)", (d) => (d.seeded ? `${d.seeded.totpUsers} with TOTP, ${d.seeded.passkeyUsers} with a passkey (${d.seeded.seconds} s)` : "–")),
      row("RSS idle / peak", (d) => `${fmtMb(d.rssIdleMb)} / ${fmtMb(d.rssPeakMb)}`),
    ],
  };
  const targets = results.factorsTargets ?? [];
  const mark = (t) => (!t || t.pass === null ? "–" : `${t.pass ? "**PASS**" : "**FAIL**"} ${t.value}`);
  const labels = [...new Set(targets.map((t) => t.label))];
  const lines = [
    `Run of ${results.date.slice(0, 16).replace("T", " ")} UTC. Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, ` +
      `Node ${m.node}${pg ? `, PostgreSQL ${pg}` : ""}; load average ${m.loadAverageAtStart[0]} at the start, ` +
      `${m.loadAverageAtEnd[0]} at the end. Gatehouse ${results.versions.gatehouse}, autocannon ${results.versions.autocannon}. ` +
      `${c.duration} s per load, ${c.connections} connections (the passkey load after a ${c.warmup} s warm-up); ` +
      `the hash limit is the higher of Node as it comes and the launcher's malloc settings, ${c.hashSeconds} s each.`,
    "",
    markdownTable(table),
    "",
    markdownTable({
      header: ["target (Gatehouse)", ...dbs.map(([, l]) => l)],
      rows: labels.map((label) => [label, ...dbs.map(([db]) => mark(targets.find((t) => t.label === label && t.database === db)))]),
    }),
  ];
  const notes = results.errors.filter((e) => e.startsWith("factors"));
  for (const [db, label] of dbs) {
    const d = results.factors[db];
    for (const [what, r] of [
      ["password sign-in", d.passwordSignIn],
      ["TOTP sign-in", d.totpSignIn],
      ["passkey sign-in", d.passkeySignIn],
    ]) {
      if (!r) continue;
      if (r.failures && r.failed) notes.push(`${label}, ${what}: ${r.failed} failed (${JSON.stringify(r.failures)}), ${r.errors} errors, ${r.timeouts} timeouts`);
      else if (!r.failures && (r.non2xx || r.errors || r.timeouts)) notes.push(`${label}, ${what}: ${r.non2xx} non-2xx (${JSON.stringify(r.statuses)}), ${r.errors} errors, ${r.timeouts} timeouts`);
    }
  }
  if (notes.length) lines.push("", "⚠ Failed requests in this run:", "", ...notes.map((n) => `- ${n}`));
  return lines.join("\n");
}

// ---- output ----------------------------------------------------------------------------------------------

export function renderConsole(results, render = renderMarkdown) {
  return render(results).replaceAll("**", "");
}

/**
 * Replaces one generated part of README.md (between <!-- NAME:start --> and <!-- NAME:end -->), keeping the prose
 * and the other generated parts around it.
 */
export function updateReadme(path, markdown, name = "results") {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const text = readFileSync(path, "utf8");
  const a = text.indexOf(start);
  const b = text.indexOf(end);
  if (a < 0 || b < a) throw new Error(`${path} has no ${start} … ${end} markers`);
  writeFileSync(path, text.slice(0, a + start.length) + "\n" + markdown + "\n" + text.slice(b));
}
