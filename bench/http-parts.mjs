// The parts of a request that Gatehouse does by hand instead of with Hono's helpers (issue #13: "use the framework's
// parts unless a measurement shows the hand-written one is faster on a hot path"): reading the cookies of a
// get-session request, and verifying its signed session cookie. Each is timed in this process, against Hono's own
// (`hono/utils/cookie`, what `hono/cookie` calls), on the same input. `npm run bench:parts` at the repository root
// builds the server first. See "Cookies and request bodies" in README.md.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { cpus } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { updateReadme } from "./lib/report.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, "..");
const ours = await import(join(ROOT, "server/dist/http/cookies.js"));
const hono = createRequire(join(ROOT, "server/package.json"))("hono/utils/cookie");

const SECRET = "bench-secret-that-is-long-enough-for-production-use";
const ROUNDS = 7;

// A get-session request's Cookie header as a browser sends it with the cookie cache on: the signed session token,
// the cache cookie (the session and user, signed) and another site cookie on the same host.
const token = "k7Q2mZx9RwT4vB8nLp3sYd6hJf1gCa5e";
const cacheValue = Buffer.from(
  JSON.stringify({
    session: { id: "s".repeat(32), userId: "u".repeat(32), token, expiresAt: new Date(Date.now() + 6048e5).toISOString() },
    user: { id: "u".repeat(32), name: "Bench User", email: "bench@example.com", emailVerified: true, image: null },
    issuedAt: Date.now(),
  }),
).toString("base64url");
const header = [
  `gatehouse.session_token=${encodeURIComponent(ours.signCookieValue(token, SECRET))}`,
  `gatehouse.session_data=${encodeURIComponent(ours.signCookieValue(cacheValue, SECRET))}`,
  "theme=dark",
].join("; ");
const signedToken = ours.parseCookies(header).get("gatehouse.session_token");
// What get-session looks up in the header: the session, its cache, and "don't remember me" (absent here).
const NAMES = ["gatehouse.session_token", "gatehouse.session_data", "gatehouse.dont_remember"];

/** Nanoseconds per call: the median of ROUNDS timed runs of `n` calls, after a warm-up. */
async function time(fn, n) {
  for (let i = 0; i < n / 5; i++) await fn();
  const rounds = [];
  for (let round = 0; round < ROUNDS; round++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < n; i++) await fn();
    rounds.push(Number(process.hrtime.bigint() - start) / n);
  }
  return rounds.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)];
}

const sync = (fn) => fn; // awaited in the loop, but returns no promise: the await costs the same for all.

const cases = [
  {
    what: "read the 3 cookies get-session needs from the header",
    ours: ["parseCookies (once, then 3 lookups)", sync(() => { const c = ours.parseCookies(header); return NAMES.map((n) => c.get(n)); }), 200_000],
    theirs: [
      ["hono parse (whole header, then 3 lookups)", sync(() => { const c = hono.parse(header); return NAMES.map((n) => c[n]); }), 200_000],
      ["hono parse by name (3 calls)", sync(() => NAMES.map((n) => hono.parse(header, n)[n])), 200_000],
    ],
  },
  {
    what: "verify the signed session cookie",
    ours: ["unsignCookieValue (node:crypto HMAC)", sync(() => ours.unsignCookieValue(signedToken, SECRET)), 100_000],
    theirs: [["hono parseSigned by name (WebCrypto)", () => hono.parseSigned(header, SECRET, "gatehouse.session_token"), 20_000]],
  },
];

const results = [];
for (const { what, ours: [oursName, oursFn, n], theirs } of cases) {
  const oursNs = await time(oursFn, n);
  const row = { what, ours: { name: oursName, ns: oursNs }, theirs: [] };
  for (const [name, fn, m] of theirs) row.theirs.push({ name, ns: await time(fn, m) });
  results.push(row);
}

const us = (ns) => `${(ns / 1000).toFixed(2)} µs`;
const lines = [
  `Run of ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC on ${cpus()[0]?.model.trim()}, Node ${process.version}, Hono ${JSON.parse(readFileSync(join(ROOT, "node_modules/hono/package.json"), "utf8")).version}: the median of ${ROUNDS} runs per figure, one core.`,
  "",
  "| per get-session request | Gatehouse (kept) | Hono |",
  "| --- | --- | --- |",
  ...results.map((r) => `| ${r.what} | ${r.ours.name}: **${us(r.ours.ns)}** | ${r.theirs.map((t) => `${t.name}: ${us(t.ns)}`).join("; ")} |`),
];
const markdown = lines.join("\n");
console.log(markdown);
if (process.env.BENCH_README !== "0") updateReadme(join(HERE, "README.md"), markdown, "parts-results");
