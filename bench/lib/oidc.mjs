import autocannon from "autocannon";
import { createHash, createPublicKey, randomBytes, verify } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runLoad } from "./load.mjs";
import { dropDatabase, recreateDatabase } from "./pg-admin.mjs";
import { freePort, memoryOf, settle } from "./proc.mjs";

/**
 * The `oidc` part: the OpenID Provider's token endpoint (authorization code exchange, refresh with rotation) and
 * userinfo, on Gatehouse and on Better Auth's OAuth provider (`@better-auth/oauth-provider` with its `jwt` plugin,
 * `servers/better-auth-oauth.mjs`), configured alike, each on SQLite and PostgreSQL. What a load consumes (codes,
 * refresh-token chains, access tokens) is made through the real routes before it, outside the measured window.
 */

/**
 * Where the authorization server sends the browser back: an https address (Better Auth takes no other for a web
 * client), never fetched: the driver reads the code from the redirect.
 */
export const OIDC_REDIRECT = "https://app.bench.example/callback";
export const OIDC_SCOPE = "openid profile email offline_access";
/** How long a code lives on both servers (Better Auth's default; Gatehouse's is 60 s, its maximum 600). */
const CODE_LIFETIME = 600;
const CLIENT_SECRET = "bench-oidc-client-secret-0123456789-abcdefghijklmnop";
/** The API a JWT access token is for (RFC 8707 `resource`): the JWT clients may ask for it on both servers. */
const API_RESOURCE = "https://api.bench.example";
/** The ID tokens' (and JWT access tokens') algorithm on both servers; RS256 is OpenID Connect's default. */
const SIGNING_ALG = (process.env.BENCH_OIDC_ALG ?? "RS256").toUpperCase();
if (!["RS256", "ES256"].includes(SIGNING_ALG)) throw new Error(`BENCH_OIDC_ALG must be RS256 or ES256 (got "${SIGNING_ALG}")`);

const PG_DATABASES = { gatehouse: "gatehouse_bench_oidc_gatehouse", "better-auth": "gatehouse_bench_oidc_better_auth" };
const FLOWS = ["codeExchange", "userinfo", "refresh"];

const versionOf = (path) => {
  try {
    return JSON.parse(readFileSync(path, "utf8")).version;
  } catch {
    return null;
  }
};

// ---- the servers ---------------------------------------------------------------------------------------------

/**
 * Gatehouse as the main loads start it (its options file, cookie cache off), with two trusted confidential clients
 * added to that file: alike but for the access tokens' format (opaque, the default of a web client, and JWT).
 */
function gatehouseServer(deps, { port, databaseUrl, dir }) {
  const spec = deps.gatehouseSpawnSpec({ port, databaseUrl, cookieCache: false, dir });
  const file = spec.env.GATEHOUSE_CONFIG;
  const options = JSON.parse(readFileSync(file, "utf8"));
  const client = (clientId, accessTokenFormat) => ({
    clientId,
    ...(accessTokenFormat === "jwt" ? { audience: [API_RESOURCE] } : {}),
    clientSecret: CLIENT_SECRET,
    name: `Bench (${accessTokenFormat})`,
    type: "web",
    redirectURLs: [OIDC_REDIRECT],
    skipConsent: true,
    grantTypes: ["authorization_code", "refresh_token"],
    scopes: OIDC_SCOPE.split(" "),
    accessTokenFormat,
    signingAlg: SIGNING_ALG,
  });
  options.oidcProvider = {
    codeExpiresIn: CODE_LIFETIME,
    trustedClients: [client("bench-opaque", "opaque"), client("bench-jwt", "jwt")],
  };
  writeFileSync(file, JSON.stringify(options));
  return {
    spec,
    paths: { authorize: "/api/auth/oauth2/authorize", token: "/api/auth/oauth2/token", userinfo: "/api/auth/oauth2/userinfo", jwks: "/api/auth/jwks" },
    clients: () => ({
      opaque: { id: "bench-opaque", secret: CLIENT_SECRET },
      jwt: { id: "bench-jwt", secret: CLIENT_SECRET, resource: API_RESOURCE },
    }),
  };
}

/**
 * Better Auth with the OAuth provider and the jwt plugin (servers/better-auth-oauth.mjs), the existing bench
 * server's settings; it registers its one client at start-up. Its access tokens are opaque unless the authorization
 * asks for a resource (an API) the provider knows and the client is linked to: then they are JWTs.
 */
function betterAuthServer(deps, { databaseUrl }) {
  const client = { id: "bench-client", secret: CLIENT_SECRET };
  return {
    spec: {
      args: [join(deps.here, "servers/better-auth-oauth.mjs")],
      env: {
        BA_DATABASE: databaseUrl,
        BA_COOKIE_CACHE: "0",
        BA_SECRET: deps.secret,
        BA_POOL_SIZE: "10",
        BA_OAUTH_CLIENT_ID: client.id,
        BA_OAUTH_CLIENT_SECRET: client.secret,
        BA_OAUTH_REDIRECT: OIDC_REDIRECT,
        BA_OAUTH_SCOPES: OIDC_SCOPE,
        BA_OAUTH_CODE_LIFETIME: String(CODE_LIFETIME),
        BA_OAUTH_RESOURCE: API_RESOURCE,
        BA_JWT_ALG: SIGNING_ALG,
      },
    },
    paths: { authorize: "/api/auth/oauth2/authorize", token: "/api/auth/oauth2/token", userinfo: "/api/auth/oauth2/userinfo", jwks: "/api/auth/jwks" },
    clients: () => ({ opaque: client, jwt: { ...client, resource: API_RESOURCE } }),
  };
}

const SERVERS = {
  gatehouse: { label: "Gatehouse", make: gatehouseServer },
  "better-auth": { label: "Better Auth", make: betterAuthServer },
};

/**
 * BENCH_OIDC_SERVERS and BENCH_OIDC_FORMATS (comma lists): one server or one access-token format only, to profile it
 * (a run without both servers checks no target). Unset: all.
 */
const listOf = (value, known) => value?.split(",").map((s) => s.trim()).filter((s) => known.includes(s));
const ONLY = {
  servers: listOf(process.env.BENCH_OIDC_SERVERS, Object.keys(SERVERS)),
  formats: listOf(process.env.BENCH_OIDC_FORMATS, ["opaque", "jwt"]),
};

// ---- a browser: cookies, sign-up, the authorization request ------------------------------------------------------

class Jar {
  constructor() {
    this.cookies = new Map();
  }

  header() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  store(lines) {
    for (const line of lines) {
      const pair = line.split(";")[0];
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expires = /;\s*expires=([^;]+)/i.exec(line)?.[1];
      const gone = /;\s*max-age=(0|-\d+)\s*(;|$)/i.test(line) || (expires !== undefined && Date.parse(expires) < Date.now());
      if (gone || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}

async function signUp(base, email, password) {
  const jar = new Jar();
  const response = await fetch(`${base}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ name: "Bench User", email, password }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`sign-up answered ${response.status}: ${text.slice(0, 300)}`);
  jar.store(response.headers.getSetCookie());
  if (!jar.cookies.size) throw new Error("sign-up set no session cookie");
  return { email, jar };
}

const S256 = (verifier) => createHash("sha256").update(verifier).digest("base64url");

/**
 * One authorization request as a signed-in browser makes it (PKCE S256, the scopes above, a state), following the
 * redirects within the service with the browser's cookies until the one back to the client: answers its code and
 * the verifier. The first-party client skips the consent page; a stop anywhere else (the sign-in or consent page,
 * an error page) is an error.
 */
async function authorizeCode(server, client, user) {
  const verifier = randomBytes(32).toString("base64url");
  const state = randomBytes(12).toString("base64url");
  const params = new URLSearchParams({
    response_type: "code",
    client_id: client.id,
    redirect_uri: OIDC_REDIRECT,
    scope: OIDC_SCOPE,
    state,
    code_challenge: S256(verifier),
    code_challenge_method: "S256",
    ...(client.resource ? { resource: client.resource } : {}),
  });
  let url = new URL(`${server.base}${server.paths.authorize}?${params}`);
  for (let hop = 0; hop < 10; hop++) {
    const headers = user.jar.cookies.size ? { cookie: user.jar.header() } : {};
    const response = await fetch(url, { headers, redirect: "manual" });
    user.jar.store(response.headers.getSetCookie());
    let location = response.status >= 300 && response.status < 400 ? response.headers.get("location") : null;
    const text = await response.text();
    // Better Auth answers a request it takes for a script's fetch (Node's fetch sends `Sec-Fetch-Mode: cors`) with
    // the redirect as JSON rather than a 302; the same work is done either way.
    if (!location && response.status === 200 && /json/.test(response.headers.get("content-type") ?? "")) {
      const answer = JSON.parse(text);
      if (answer?.redirect === true && typeof answer.url === "string") location = answer.url;
    }
    if (!location) {
      const error = new Error(`the authorization stopped at ${url.pathname} with ${response.status}: ${text.slice(0, 300)}`);
      error.status = response.status;
      throw error;
    }
    const next = new URL(location, url);
    if (next.href.startsWith(OIDC_REDIRECT)) {
      const code = next.searchParams.get("code");
      if (!code || next.searchParams.get("state") !== state) throw new Error(`the redirect back carried no code or another state: ${next.href.slice(0, 300)}`);
      return { code, verifier };
    }
    if (next.origin !== server.base || !next.pathname.startsWith("/api/auth/")) {
      throw new Error(`the authorization sent the browser to ${next.href.slice(0, 200)} (a sign-in or consent page?)`);
    }
    url = next;
  }
  throw new Error("the authorization redirected more than 10 times");
}

/**
 * `count` codes, the users' browsers authorizing side by side (each user one request at a time: its own cookies).
 * An authorization answered 503 (the server out of database connections for a while: Gatehouse waits 5 s for one,
 * which a machine busy with other work can exceed) is started again after a second, at most 3 times.
 */
async function prepareCodes(server, client, users, count) {
  const codes = [];
  let started = 0;
  await Promise.all(
    users.map(async (user) => {
      while (started < count) {
        started++;
        for (let attempt = 1; ; attempt++) {
          try {
            codes.push(await authorizeCode(server, client, user));
            break;
          } catch (error) {
            if (error.status !== 503 || attempt === 3) throw error;
            await new Promise((resolve) => setTimeout(resolve, 1000));
          }
        }
      }
    }),
  );
  return codes;
}

// ---- token requests ----------------------------------------------------------------------------------------------

const basic = (client) => `Basic ${Buffer.from(`${encodeURIComponent(client.id)}:${encodeURIComponent(client.secret)}`).toString("base64")}`;
const FORM = "application/x-www-form-urlencoded";
const codeBody = ({ code, verifier }) =>
  new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: OIDC_REDIRECT, code_verifier: verifier }).toString();
const refreshBody = (token) => new URLSearchParams({ grant_type: "refresh_token", refresh_token: token }).toString();

async function tokenRequest(server, client, body) {
  const response = await fetch(server.base + server.paths.token, {
    method: "POST",
    headers: { "content-type": FORM, authorization: basic(client) },
    body,
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`the token endpoint answered ${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

/** What a token response must carry (any 200 without it counts as failed). */
const tokensComplete = (t) => Boolean(t.access_token && t.refresh_token && t.id_token && /^(bearer)$/i.test(t.token_type ?? ""));

function decodeJwt(token) {
  const [header, payload, signature] = token.split(".");
  return {
    header: JSON.parse(Buffer.from(header, "base64url").toString()),
    payload: JSON.parse(Buffer.from(payload, "base64url").toString()),
    signed: `${header}.${payload}`,
    signature: Buffer.from(signature, "base64url"),
  };
}

/** Checks a JWT's signature with the server's JWKS (node:crypto); answers its header and payload. */
function verifyJwt(token, jwks) {
  const jwt = decodeJwt(token);
  const jwk = jwks.keys.find((k) => k.kid === jwt.header.kid) ?? (jwks.keys.length === 1 ? jwks.keys[0] : null);
  if (!jwk) throw new Error(`no key ${jwt.header.kid} in the JWKS`);
  const key = createPublicKey({ key: jwk, format: "jwk" });
  const ok =
    jwt.header.alg === "RS256"
      ? verify("sha256", Buffer.from(jwt.signed), key, jwt.signature)
      : jwt.header.alg === "ES256"
        ? verify("sha256", Buffer.from(jwt.signed), { key, dsaEncoding: "ieee-p1363" }, jwt.signature)
        : null;
  if (ok === null) throw new Error(`a JWT signed with ${jwt.header.alg}, the bench expects ${SIGNING_ALG}`);
  if (!ok) throw new Error("a JWT whose signature the JWKS does not verify");
  return jwt;
}

/**
 * The checks before any load, through fetch: a code exchanged (access, refresh and ID tokens; the ID token's
 * signature, algorithm, subject and audience; a JWT access token's too), userinfo answering the user's address
 * (opaque tokens), and a refresh answering a new refresh token.
 */
async function checkFlows(server, client, user, format) {
  const jwks = await (await fetch(server.base + server.paths.jwks)).json();
  const tokens = await tokenRequest(server, client, codeBody(await authorizeCode(server, client, user)));
  if (!tokensComplete(tokens)) throw new Error(`the code exchange answered without every token: ${JSON.stringify(Object.keys(tokens))}`);
  const idToken = verifyJwt(tokens.id_token, jwks);
  if (idToken.header.alg !== SIGNING_ALG) throw new Error(`the ID token is signed ${idToken.header.alg}, not ${SIGNING_ALG}`);
  if ([idToken.payload.aud].flat()[0] !== client.id || !idToken.payload.sub) throw new Error(`the ID token's audience or subject is wrong: ${JSON.stringify(idToken.payload)}`);
  if (idToken.payload.email !== undefined && idToken.payload.email !== user.email) throw new Error("the ID token is another user's");
  const isJwt = tokens.access_token.split(".").length === 3;
  if (isJwt !== (format === "jwt")) throw new Error(`the ${format} client was given a${isJwt ? " JWT" : "n opaque"} access token`);
  if (isJwt) {
    const access = verifyJwt(tokens.access_token, jwks);
    if (access.payload.sub !== idToken.payload.sub) throw new Error("the JWT access token's subject is not the ID token's");
  } else {
    const info = await fetch(server.base + server.paths.userinfo, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    const claims = await info.json();
    if (info.status !== 200 || claims.email !== user.email || claims.sub !== idToken.payload.sub) {
      throw new Error(`userinfo answered ${info.status}: ${JSON.stringify(claims).slice(0, 300)}`);
    }
  }
  const refreshed = await tokenRequest(server, client, refreshBody(tokens.refresh_token));
  if (!tokensComplete(refreshed) || refreshed.refresh_token === tokens.refresh_token) {
    throw new Error(`the refresh answered no new refresh token: ${JSON.stringify(Object.keys(refreshed))}`);
  }
  return { subject: idToken.payload.sub, accessTokenFormat: isJwt ? "jwt" : "opaque", idTokenAlg: idToken.header.alg };
}

// ---- loads -----------------------------------------------------------------------------------------------------

/**
 * An autocannon load whose every connection has requests of its own (`requestFor(slot)`: an autocannon request
 * with setupRequest / onResponse), latencies recorded at full precision as in lib/load.mjs. It is timed here: the
 * window closes after `duration` seconds, and answers after that are not counted (autocannon itself notices a
 * stop only at its next one-second tick). With `amount`, the load also ends after that many requests (what was
 * prepared for it), and its window closes with the last answer. `opts.state.live` turns false when the window
 * closes; `opts.state.invalid` counts 200 answers whose body was not what it should be (failed, not ok).
 */
export function runPreparedLoad(opts) {
  const latencies = [];
  const statuses = {};
  const pendingSince = [];
  const state = opts.state;
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let closedAt = null;
    let lastAnswerAt = started;
    const close = () => {
      if (closedAt !== null) return;
      closedAt = performance.now();
      state.live = false;
      instance.stop();
    };
    const instance = autocannon(
      {
        url: opts.url,
        connections: opts.connections,
        timeout: opts.timeout ?? 30,
        ...(opts.amount ? { amount: opts.amount } : { duration: opts.duration + 5 }),
        // Replaced for each connection by its own (setupClient); this one is never sent.
        requests: [{ method: "POST", path: opts.path, body: "" }],
        setupClient(client) {
          const slot = pendingSince.push(null) - 1;
          client.setRequests([opts.requestFor(slot)]);
          client.on("request", () => (pendingSince[slot] = performance.now()));
          client.on("response", () => (pendingSince[slot] = null));
          client.on("timeout", () => (pendingSince[slot] = null));
        },
      },
      (error, result) => {
        clearTimeout(timer);
        if (error) return reject(error);
        // Ended by the amount: the window closed with the last answer.
        const end = closedAt ?? lastAnswerAt;
        state.live = false;
        const seconds = Math.min((end - started) / 1000, opts.duration);
        const sorted = Float64Array.from(latencies).sort();
        const pct = (p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] : null);
        const round = (v) => (v === null ? null : Math.round(v * 1000) / 1000);
        const total = Object.values(statuses).reduce((a, b) => a + b, 0);
        const good = Object.entries(statuses).reduce((n, [code, count]) => n + (code >= 200 && code < 300 ? count : 0), 0);
        const ok = good - state.invalid;
        resolve({
          seconds: Math.round(seconds * 100) / 100,
          ok,
          non2xx: total - good + state.invalid,
          invalid: state.invalid,
          statuses,
          errors: result.errors,
          timeouts: result.timeouts,
          rps: Math.round((ok / seconds) * 10) / 10,
          p50: round(pct(50)),
          p90: round(pct(90)),
          p99: round(pct(99)),
          max: round(sorted.length ? sorted[sorted.length - 1] : null),
          mean: round(sorted.length ? sorted.reduce((a, b) => a + b, 0) / sorted.length : null),
          // Requests in flight when the window closed (dropped, as autocannon drops the last requests of a load).
          unfinished: pendingSince.filter((t) => t !== null).length,
          stalled: [],
        });
      },
    );
    const timer = setTimeout(close, opts.duration * 1000);
    instance.on("response", (_client, statusCode, _bytes, responseTime) => {
      if (closedAt !== null) return;
      lastAnswerAt = performance.now();
      statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    });
  });
}

/** The code exchange: each request redeems the next prepared code (with its verifier), the client authenticated with Basic. */
function codeExchangeLoad(server, client, codes, connections, duration) {
  let taken = 0;
  const state = { live: true, invalid: 0 };
  return {
    url: server.base,
    path: server.paths.token,
    connections,
    duration,
    state,
    // Never more requests than codes (autocannon builds a connection's next request only when it will send it).
    amount: codes.length,
    requestFor: () => ({
      method: "POST",
      path: server.paths.token,
      headers: { "content-type": FORM, authorization: basic(client) },
      setupRequest: (request) => ({ ...request, body: codeBody(codes[taken++]) }),
      onResponse(status, body) {
        if (state.live && status === 200 && !tokensComplete(JSON.parse(body))) state.invalid++;
      },
    }),
  };
}

/**
 * The refresh: each connection holds a chain of its own and sends the refresh token the last answer gave. A chain
 * serves one load only: the request in flight when a load stops may have rotated its token unseen.
 */
function refreshLoad(server, client, chains, connections, duration) {
  const state = { live: true, invalid: 0 };
  return {
    url: server.base,
    path: server.paths.token,
    connections,
    duration,
    state,
    requestFor: (slot) => {
      const chain = chains[slot];
      return {
        method: "POST",
        path: server.paths.token,
        headers: { "content-type": FORM, authorization: basic(client) },
        setupRequest: (request) => ({ ...request, body: refreshBody(chain.refreshToken) }),
        onResponse(status, body) {
          if (status !== 200) return;
          const tokens = JSON.parse(body);
          if (!tokensComplete(tokens)) {
            if (state.live) state.invalid++;
            return;
          }
          chain.refreshToken = tokens.refresh_token;
          chain.rotations++;
        },
      };
    },
  };
}

/** Each connection's chain: one code of its user exchanged (access and refresh token). */
async function prepareChains(server, client, users) {
  return Promise.all(
    users.map(async (user) => {
      const tokens = await tokenRequest(server, client, codeBody(await authorizeCode(server, client, user)));
      if (!tokensComplete(tokens)) throw new Error("a chain's code exchange answered without every token");
      return { accessToken: tokens.access_token, refreshToken: tokens.refresh_token, rotations: 0 };
    }),
  );
}

// ---- both servers on one database, each flow measured on one right after the other ---------------------------

/**
 * Starts one server and signs its users up: answers what the flows below need (`failed` is set, and the server
 * stopped, when a step of it throws).
 */
async function openServer(kind, database, databaseUrl, deps) {
  const { config, log } = deps;
  const dir = join(deps.work, `oidc-${kind}-${database}`);
  mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const made = SERVERS[kind].make(deps, { port, databaseUrl, dir });
  const tag = `${kind}-oidc-${database}`;
  log(`${SERVERS[kind].label} OpenID Provider on ${database}: starting`);
  const handle = await deps.startTarget(tag, made.spec, port);
  const ctx = { kind, database, tag, handle, server: { pid: handle.pid, base: handle.base, paths: made.paths }, out: { formats: {} } };
  try {
    ctx.clients = made.clients();
    ctx.users = [];
    for (let i = 0; i < config.connections; i++) {
      ctx.users.push(await signUp(ctx.server.base, `oidc-${deps.runTag}-${kind}-${database}-${i}@bench.example`, deps.password));
    }
    log(`  ${SERVERS[kind].label}: ${ctx.users.length} users signed up`);
  } catch (error) {
    await handle.stop();
    throw error;
  }
  return ctx;
}

/** Runs `step` for each live server in turn; a server whose step throws is recorded as failed and stopped. */
async function eachServer(contexts, deps, step) {
  for (const ctx of contexts) {
    if (ctx.failed) continue;
    try {
      await step(ctx);
      if (ctx.handle.exited) throw new Error(`${ctx.tag} exited during the run: ${JSON.stringify(ctx.handle.exited)}`);
    } catch (error) {
      ctx.failed = error;
      deps.errors.push(`oidc on ${ctx.database}, ${SERVERS[ctx.kind].label}: ${error.message}`);
      ctx.out = { error: error.message };
      deps.log(`  ${SERVERS[ctx.kind].label} failed: ${error.message}`);
      await ctx.handle.stop();
    }
  }
}

/** Waits until every server (and this process) is idle: the server measured next must not share the cores. */
async function settleAll(contexts) {
  await settle([...contexts.filter((ctx) => !ctx.failed).map((ctx) => ctx.server.pid), process.pid]);
}

/**
 * One access-token format on every server. The machine's speed drifts by 20–30% over minutes, so each flow is
 * measured on one server right after the other (what a load consumes is prepared for both first), never one
 * server's flows all before the other's.
 */
async function benchFormat(contexts, format, deps) {
  const { config, log, measure, brief } = deps;
  const live = () => contexts.filter((c) => !c.failed && c.clients[format]);
  const label = (ctx) => `${SERVERS[ctx.kind].label} ${format}`;
  await eachServer(live(), deps, async (ctx) => {
    const r = (ctx.out.formats[format] = {});
    r.checked = await checkFlows(ctx.server, ctx.clients[format], ctx.users[0], format);
    log(`  ${label(ctx)}: code exchange, ${format === "opaque" ? "userinfo, " : ""}refresh checked (ID token ${r.checked.idTokenAlg}, ${r.checked.accessTokenFormat} access token)`);
    await settle(ctx.server.pid);
    if (ctx.out.rssIdleMb === undefined) ctx.out.rssIdleMb = memoryOf(ctx.server.pid).rssMb;
  });

  // Code exchange. Each request spends a code, so a load must not outrun what was prepared: a cold probe of a few
  // codes per connection gives a first rate, a warm-up of BENCH_WARMUP seconds with codes for twice that rate a
  // better one, and the measured load gets codes for 1.5× that. The warm-ups and the codes of every server come
  // first, then the measured loads one after the other. A load that used every code before its time was up counts
  // as one more warm-up, and is prepared and run again with codes for the rate it reached (at most twice).
  const exchange = (ctx, codes, duration) => runPreparedLoad(codeExchangeLoad(ctx.server, ctx.clients[format], codes, config.connections, duration));
  const codesFor = (rate, seconds, margin) => Math.ceil(Math.max(rate, 20) * seconds * margin) + 2 * config.connections;
  const prepare = async (ctx) => {
    const r = ctx.out.formats[format];
    const started = Date.now();
    const codes = await prepareCodes(ctx.server, ctx.clients[format], ctx.users, codesFor(ctx.rate, config.duration, 1.5));
    const seconds = Math.round((Date.now() - started) / 100) / 10;
    r.codesPrepared = { count: codes.length, seconds, runs: (r.codesPrepared?.runs ?? 0) + 1, totalSeconds: Math.round(((r.codesPrepared?.totalSeconds ?? 0) + seconds) * 10) / 10 };
    log(`  ${label(ctx)}: ${codes.length} codes prepared in ${seconds} s (for ${Math.round(ctx.rate)} exchanges/s)`);
    ctx.codes = codes;
  };
  const measureExchange = async (ctx) => {
    const r = ctx.out.formats[format];
    await settleAll(contexts);
    r.codeExchange = await measure(ctx.server, codeExchangeLoad(ctx.server, ctx.clients[format], ctx.codes, config.connections, config.duration), runPreparedLoad);
    ctx.codes = null;
    ctx.short = r.codeExchange.seconds < config.duration - 0.2;
    log(`  ${label(ctx)} code exchange: ${brief(r.codeExchange)}${ctx.short ? ` (every code used after ${r.codeExchange.seconds} s)` : ""}`);
    if (ctx.short) ctx.rate = r.codeExchange.rps;
  };
  await eachServer(live(), deps, async (ctx) => {
    const started = Date.now();
    ctx.rate = (await exchange(ctx, await prepareCodes(ctx.server, ctx.clients[format], ctx.users, config.connections * 4), config.warmup)).rps;
    const warm = await exchange(ctx, await prepareCodes(ctx.server, ctx.clients[format], ctx.users, codesFor(ctx.rate, config.warmup, 2)), config.warmup);
    if (warm.non2xx || warm.errors) throw new Error(`the code exchange warm-up failed: ${brief(warm)}`);
    ctx.rate = warm.rps;
    ctx.out.formats[format].warmUpSeconds = Math.round((Date.now() - started) / 100) / 10;
  });
  await eachServer(live(), deps, prepare);
  await eachServer(live(), deps, measureExchange);
  for (let again = 0; again < 2; again++) {
    const short = live().filter((c) => c.short);
    if (!short.length) break;
    await eachServer(short, deps, async (ctx) => {
      await prepare(ctx);
      await measureExchange(ctx);
    });
  }

  // Userinfo (opaque access tokens: Gatehouse's JWT access tokens are for APIs, which check them themselves): each
  // connection sends an access token of its own, of its own user; a warm-up right before each measured load.
  if (format === "opaque") {
    await eachServer(live(), deps, async (ctx) => {
      const chains = await prepareChains(ctx.server, ctx.clients[format], ctx.users);
      const userinfo = (duration) => ({
        url: ctx.server.base,
        path: ctx.server.paths.userinfo,
        headersOf: (i) => ({ authorization: `Bearer ${chains[i % chains.length].accessToken}` }),
        connections: config.connections,
        duration,
      });
      await settleAll(contexts);
      await runLoad(userinfo(config.warmup));
      await settle(ctx.server.pid);
      const r = ctx.out.formats[format];
      r.userinfo = await measure(ctx.server, userinfo(config.duration));
      log(`  ${label(ctx)} userinfo: ${brief(r.userinfo)}`);
    });
  }

  // Refresh: a chain per connection, new ones for the measured load; a warm-up right before it.
  await eachServer(live(), deps, async (ctx) => {
    const client = ctx.clients[format];
    const warmChains = await prepareChains(ctx.server, client, ctx.users);
    const refreshChains = await prepareChains(ctx.server, client, ctx.users);
    await settleAll(contexts);
    const warm = await runPreparedLoad(refreshLoad(ctx.server, client, warmChains, config.connections, config.warmup));
    if (warm.non2xx || warm.errors) throw new Error(`the refresh warm-up failed: ${brief(warm)}`);
    await settle(ctx.server.pid);
    const r = ctx.out.formats[format];
    r.refresh = await measure(ctx.server, refreshLoad(ctx.server, client, refreshChains, config.connections, config.duration), runPreparedLoad);
    r.refresh.rotationsPerChain = Math.round(refreshChains.reduce((n, c) => n + c.rotations, 0) / refreshChains.length);
    log(`  ${label(ctx)} refresh: ${brief(r.refresh)}`);
  });
}

async function benchDatabase(database, deps) {
  const out = { database, servers: {} };
  const kinds = Object.keys(SERVERS).filter((k) => !ONLY.servers || ONLY.servers.includes(k));
  const contexts = [];
  try {
    for (const kind of kinds) {
      try {
        let databaseUrl;
        if (database === "sqlite") {
          mkdirSync(join(deps.work, `oidc-${kind}-${database}`), { recursive: true });
          databaseUrl = `sqlite://${join(deps.work, `oidc-${kind}-${database}`, "bench.db")}`;
        } else {
          const created = await recreateDatabase(deps.config.pgAdminUrl, PG_DATABASES[kind]);
          databaseUrl = created.url;
          out.postgresVersion = created.version;
        }
        await settle(process.pid);
        contexts.push(await openServer(kind, database, databaseUrl, deps));
      } catch (error) {
        deps.errors.push(`oidc on ${database}, ${SERVERS[kind].label}: ${error.message}`);
        out.servers[kind] = { error: error.message };
        deps.log(`  failed: ${error.message}`);
      }
    }
    for (const format of ONLY.formats ?? ["opaque", "jwt"]) await benchFormat(contexts, format, deps);
    for (const ctx of contexts) {
      if (!ctx.failed) ctx.out.rssPeakMb = memoryOf(ctx.server.pid).hwmMb;
      out.servers[ctx.kind] = ctx.out;
    }
  } finally {
    for (const ctx of contexts) if (!ctx.failed) await ctx.handle.stop();
    if (database === "postgres" && !deps.config.keepData) {
      for (const kind of kinds) await dropDatabase(deps.config.pgAdminUrl, PG_DATABASES[kind]).catch(() => undefined);
    }
  }
  return out;
}

/**
 * The part, on each database in turn. deps: config, work, log, errors (the run's list), startTarget, measure, brief,
 * gatehouseSpawnSpec (the main loads' Gatehouse), secret, password, runTag, here (bench/).
 */
export async function runOidcPart(databases, deps) {
  const out = {
    signingAlg: SIGNING_ALG,
    scope: OIDC_SCOPE,
    oauthProviderVersion: versionOf(join(deps.here, "node_modules/@better-auth/oauth-provider/package.json")),
  };
  for (const database of databases) out[database] = await benchDatabase(database, deps);
  return out;
}

// ---- report ----------------------------------------------------------------------------------------------------

const DBS = [
  ["sqlite", "SQLite"],
  ["postgres", "PostgreSQL"],
];
const FLOW_LABELS = { codeExchange: "code exchange", userinfo: "userinfo", refresh: "refresh" };
export const OIDC_TARGET_RATIO = 5;

/** Issue #16's target: Gatehouse at least 5× Better Auth's req/s on each flow, per database (and per access-token format). */
export function evaluateOidcTargets(results) {
  const out = [];
  for (const [db] of DBS) {
    const d = results.oidc?.[db];
    if (!d) continue;
    const gh = d.servers?.gatehouse;
    const ba = d.servers?.["better-auth"];
    for (const format of ["opaque", "jwt"]) {
      for (const flow of FLOWS) {
        if (format === "jwt" && flow === "userinfo") continue;
        const label = `${FLOW_LABELS[flow]} ≥ ${OIDC_TARGET_RATIO}× Better Auth's req/s (${format === "opaque" ? "opaque" : "JWT"} access tokens)`;
        const a = gh?.formats?.[format]?.[flow];
        const b = ba?.formats?.[format]?.[flow];
        if (!a?.rps || !b?.rps) {
          const failed = Boolean(gh?.error || ba?.error || d.error);
          out.push({ label, database: db, value: failed ? "failed" : "not measured", pass: failed ? false : null });
          continue;
        }
        const ratio = a.rps / b.rps;
        const clean = !(a.non2xx || a.errors || a.timeouts || b.non2xx || b.errors || b.timeouts);
        out.push({
          label,
          database: db,
          ratio,
          value: `${ratio.toFixed(1)}× (${fmtRps(a.rps)} vs ${fmtRps(b.rps)})${clean ? "" : ", with failed requests"}`,
          pass: ratio >= OIDC_TARGET_RATIO && clean,
        });
      }
    }
  }
  return out;
}

function fmtRps(v) {
  if (v === null || v === undefined || Number.isNaN(v)) return "–";
  return v >= 100 ? Math.round(v).toLocaleString("en-US") : v.toFixed(1);
}

function fmtMs(v) {
  if (v === null || v === undefined || Number.isNaN(v)) return "–";
  if (v >= 1000) return `${(v / 1000).toFixed(2)} s`;
  if (v >= 100) return `${Math.round(v)} ms`;
  if (v >= 10) return `${v.toFixed(1)} ms`;
  return `${v.toFixed(2)} ms`;
}

const fmtCpu = (r) => (r?.serverCpuUs ? `${r.serverCpuUs.user + r.serverCpuUs.system} µs` : "–");
const fmtMb = (v) => (v === null || v === undefined ? "–" : `${Math.round(v)} MB`);
const warn = (r) => (r && (r.non2xx || r.errors || r.timeouts) ? " ⚠" : "");
const pair = (r) => (r ? `${fmtMs(r.p50)} / ${fmtMs(r.p99)}` : "–");
const table = ({ header, rows }) => {
  const line = (cells) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
};

export function renderOidcMarkdown(results) {
  const m = results.machine;
  const c = results.config;
  const o = results.oidc;
  const cols = [];
  for (const [db, dbLabel] of DBS) {
    for (const [kind, label] of [
      ["gatehouse", "Gatehouse"],
      ["better-auth", "Better Auth"],
    ]) {
      if (o?.[db]) cols.push({ label: `${label}, ${dbLabel}`, data: o[db].servers?.[kind] });
    }
  }
  const row = (label, cell) => [label, ...cols.map((col) => (!col.data ? "–" : col.data.error ? "failed" : cell(col.data)))];
  const rows = [];
  for (const [format, title] of [
    ["opaque", "opaque access tokens"],
    ["jwt", "JWT access tokens"],
  ]) {
    for (const flow of FLOWS) {
      if (format === "jwt" && flow === "userinfo") continue;
      rows.push(row(`${FLOW_LABELS[flow]} req/s, ${title}`, (d) => fmtRps(d.formats?.[format]?.[flow]?.rps) + warn(d.formats?.[format]?.[flow])));
      rows.push(row(`${FLOW_LABELS[flow]} p50 / p99, ${title}`, (d) => pair(d.formats?.[format]?.[flow])));
    }
    const flows = FLOWS.filter((f) => format === "opaque" || f !== "userinfo");
    rows.push(
      row(`server CPU per request (user + system): ${flows.map((f) => FLOW_LABELS[f]).join(" / ")}, ${title}`, (d) =>
        flows.map((f) => fmtCpu(d.formats?.[format]?.[f])).join(" / "),
      ),
    );
  }
  rows.push(
    row("codes prepared for the measured code exchange (time), opaque / JWT", (d) =>
      ["opaque", "jwt"].map((f) => (d.formats?.[f]?.codesPrepared ? `${d.formats[f].codesPrepared.count.toLocaleString("en-US")} (${d.formats[f].codesPrepared.seconds} s)` : "–")).join(" / "),
    ),
  );
  rows.push(row("RSS idle / peak", (d) => `${fmtMb(d.rssIdleMb)} / ${fmtMb(d.rssPeakMb)}`));

  const dbs = DBS.filter(([db]) => o?.[db]);
  const pg = o?.postgres?.postgresVersion;
  const targets = results.oidcTargets ?? [];
  const labels = [...new Set(targets.map((t) => t.label))];
  const mark = (t) => (!t || t.pass === null ? "–" : `${t.pass ? "**PASS**" : "**FAIL**"} ${t.value}`);
  const lines = [
    `Run of ${results.date.slice(0, 16).replace("T", " ")} UTC. Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, ` +
      `Node ${m.node}${pg ? `, PostgreSQL ${pg}` : ""}; load average ${m.loadAverageAtStart[0]} at the start, ` +
      `${m.loadAverageAtEnd[0]} at the end. Gatehouse ${results.versions.gatehouse}, Better Auth ${results.versions.betterAuth} ` +
      `with @better-auth/oauth-provider ${o?.oauthProviderVersion ?? "–"}, autocannon ${results.versions.autocannon}. ` +
      `${c.duration} s per load after a ${c.warmup} s warm-up, ${c.connections} connections; scopes \`${o?.scope}\`, ` +
      `ID tokens ${o?.signingAlg}.`,
    "",
    table({ header: ["figure", ...cols.map((col) => col.label)], rows }),
    "",
    table({
      header: ["target (Gatehouse)", ...dbs.map(([, l]) => l)],
      rows: labels.map((label) => [label, ...dbs.map(([db]) => mark(targets.find((t) => t.label === label && t.database === db)))]),
    }),
  ];
  const notes = results.errors.filter((e) => e.startsWith("oidc"));
  for (const col of cols) {
    for (const [format, formatData] of Object.entries(col.data?.formats ?? {})) {
      for (const flow of FLOWS) {
        const r = formatData[flow];
        if (r && (r.non2xx || r.errors || r.timeouts)) {
          notes.push(`${col.label}, ${FLOW_LABELS[flow]} (${format}): ${r.non2xx} non-2xx (${JSON.stringify(r.statuses)}${r.invalid ? `, ${r.invalid} answers without every token` : ""}), ${r.errors} errors, ${r.timeouts} timeouts`);
        }
      }
    }
  }
  if (notes.length) lines.push("", "⚠ Failed requests in this run:", "", ...notes.map((n) => `- ${n}`));
  return lines.join("\n");
}
