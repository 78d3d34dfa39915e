import { URI } from "otpauth";
import { cookieHeaderOf } from "./flow-load.mjs";
import { SoftPasskeys } from "./soft-passkey.mjs";

/**
 * The `factors` part's users and operations: users with an authenticator app (TOTP) enrolled through the real
 * routes, users with a passkey registered through the real routes, and the two-request operations the loads run.
 */

const JSON_HEADERS = { "content-type": "application/json" };
const postHeaders = (base) => ({ ...JSON_HEADERS, origin: base });

/** The Set-Cookie lines of a fetch() response as a Cookie header. */
const cookiesOf = (response) => cookieHeaderOf(response.headers.getSetCookie());

/** Cookie headers merged, later values replacing earlier ones of the same name. */
function mergeCookies(...headers) {
  const jar = new Map();
  for (const header of headers) {
    for (const pair of header.split("; ").filter(Boolean)) jar.set(pair.slice(0, pair.indexOf("=")), pair);
  }
  return [...jar.values()].join("; ");
}

async function call(base, method, path, { body, cookie } = {}) {
  const headers = { ...(method === "POST" ? postHeaders(base) : {}), ...(cookie ? { cookie } : {}) };
  const response = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
  return { response, data: text ? JSON.parse(text) : null, cookie: cookiesOf(response) };
}

/** Runs fn(i) for i < count, `parallel` at a time. */
async function inParallel(count, parallel, fn) {
  let next = 0;
  const results = new Array(count);
  await Promise.all(
    Array.from({ length: Math.min(parallel, count) }, async () => {
      while (next < count) {
        const i = next++;
        results[i] = await fn(i);
      }
    }),
  );
  return results;
}

/** Signs a new user up; answers the session cookie sign-up set (a fresh session), or signs in for one. */
async function signUp(base, email, password) {
  const up = await call(base, "POST", "/api/auth/sign-up/email", { body: { name: "Bench User", email, password } });
  if (up.cookie) return up.cookie;
  return (await call(base, "POST", "/api/auth/sign-in/email", { body: { email, password } })).cookie;
}

// ---- TOTP --------------------------------------------------------------------------------------------------

export const TOTP_PERIOD_MS = 30_000;
export const totpStepNow = () => Math.floor(Date.now() / TOTP_PERIOD_MS);

/**
 * Signs `count` users up and enrols an authenticator app for each through the routes a browser uses:
 * `two-factor/enable` with the password (the otpauth:// URI), then `two-factor/verify-totp` with the current code
 * (from the session, which confirms the enrolment). Answers the users with their TOTP and the step of the code
 * the enrolment spent.
 */
export async function seedTotpUsers(base, { prefix, count, password, parallel = 8 }) {
  return inParallel(count, parallel, async (i) => {
    const email = `${prefix}-${i}@bench.example`;
    const cookie = await signUp(base, email, password);
    const enabled = await call(base, "POST", "/api/auth/two-factor/enable", { body: { password }, cookie });
    if (!enabled.data?.totpURI) throw new Error(`two-factor/enable answered no totpURI: ${JSON.stringify(Object.keys(enabled.data ?? {}))}`);
    const totp = URI.parse(enabled.data.totpURI);
    if (totp.period * 1000 !== TOTP_PERIOD_MS) throw new Error(`the TOTP period is ${totp.period} s, the bench expects 30`);
    const step = totpStepNow();
    const confirmed = await call(base, "POST", "/api/auth/two-factor/verify-totp", {
      body: { code: totp.generate({ timestamp: step * TOTP_PERIOD_MS }) },
      cookie,
    });
    if (!confirmed.data?.user?.twoFactorEnabled) throw new Error(`the enrolment did not turn twoFactorEnabled on: ${JSON.stringify(confirmed.data?.user ?? {})}`);
    return { email, totp, lastStep: step, busy: false };
  });
}

/**
 * The TOTP users, lent one at a time to the load's connections. The server accepts a user's code once per time
 * step and then only a later step, within one step of its clock: a user may sign in with the code of the current
 * step and then with the next one's, and after that once per step (30 s). The pool lends only users who have such
 * a step left and never one already lent, so no code is refused for being spent or out of order. Steps older than
 * the current one are never used: such a code sent near the turn of a step may arrive too late.
 */
export class TotpPool {
  constructor(users) {
    this.users = users;
    this.cursor = 0;
    /** Operations that found no user with a step left (the pool was too small for the load): counted as failed. */
    this.exhausted = 0;
  }

  /** The step a user's next code should be of, or null when it has none within the server's window. */
  static nextStep(user, now = totpStepNow()) {
    const step = Math.max(user.lastStep + 1, now);
    return step <= now + 1 ? step : null;
  }

  take() {
    const now = totpStepNow();
    for (let n = 0; n < this.users.length; n++) {
      const user = this.users[(this.cursor + n) % this.users.length];
      if (!user.busy && TotpPool.nextStep(user, now) !== null) {
        this.cursor = (this.cursor + n + 1) % this.users.length;
        user.busy = true;
        return user;
      }
    }
    this.exhausted++;
    return null;
  }

  give(user) {
    if (user) user.busy = false;
  }

  /** The code the user answers with now; the step is taken at once (a code sent is spent, accepted or not). */
  code(user) {
    const step = TotpPool.nextStep(user);
    if (step === null) return null;
    user.lastStep = step;
    return user.totp.generate({ timestamp: step * TOTP_PERIOD_MS });
  }
}

/**
 * One TOTP sign-in: the password (`sign-in/email`, which answers `twoFactorRedirect` and the pending step's signed
 * cookie), then the code (`two-factor/verify-totp` with that cookie, which opens the session).
 */
export function totpSignInSteps(base, pool, password) {
  return [
    {
      name: "sign-in/email",
      method: "POST",
      path: "/api/auth/sign-in/email",
      headers: postHeaders(base),
      build(context) {
        context.user = pool.take();
        // With no user left, an operation still has to start: it signs in as nobody and fails (counted).
        const email = context.user?.email ?? "no-user-left@bench.example";
        return { body: JSON.stringify({ email, password }) };
      },
      accept(status, body, headers, context) {
        if (!context.user) return "no TOTP user with a step left";
        if (status !== 200) return `sign-in/email ${status}`;
        if (!JSON.parse(body).twoFactorRedirect) return "sign-in/email: no twoFactorRedirect";
        context.cookie = cookieHeaderOf(headers["set-cookie"]);
        return true;
      },
    },
    {
      name: "two-factor/verify-totp",
      method: "POST",
      path: "/api/auth/two-factor/verify-totp",
      headers: postHeaders(base),
      build(context) {
        const code = pool.code(context.user);
        if (!code) return null;
        return { headers: { cookie: context.cookie }, body: JSON.stringify({ code }) };
      },
      accept(status, body) {
        if (status !== 200) return `two-factor/verify-totp ${status}`;
        if (!JSON.parse(body).token) return "two-factor/verify-totp: no session token";
        return true;
      },
    },
  ];
}

/** One TOTP sign-in through fetch, checked (before the load): answers the session's user. */
export async function checkTotpSignIn(base, pool, password) {
  const user = pool.take();
  if (!user) throw new Error("no TOTP user with a step left for the check");
  try {
    const first = await call(base, "POST", "/api/auth/sign-in/email", { body: { email: user.email, password } });
    if (!first.data?.twoFactorRedirect) throw new Error(`sign-in of a TOTP user answered no twoFactorRedirect: ${JSON.stringify(first.data)}`);
    const second = await call(base, "POST", "/api/auth/two-factor/verify-totp", { body: { code: pool.code(user) }, cookie: first.cookie });
    const session = await call(base, "GET", "/api/auth/get-session", { cookie: second.cookie });
    if (session.data?.user?.email !== user.email) throw new Error(`the TOTP sign-in's session is not the user's: ${JSON.stringify(session.data)}`);
    return session.data.user;
  } finally {
    pool.give(user);
  }
}

// ---- passkeys ----------------------------------------------------------------------------------------------

/**
 * Signs `count` users up and registers a passkey for each through the routes a browser uses, from the fresh
 * session sign-up gave: `passkey/generate-register-options`, then `passkey/verify-registration` with the bench's
 * software authenticator's answer. Answers the authenticator (holding every passkey) and the users' addresses.
 */
export async function seedPasskeyUsers(base, { prefix, count, password, parallel = 8 }) {
  const authenticator = new SoftPasskeys(base);
  const emails = await inParallel(count, parallel, async (i) => {
    const email = `${prefix}-${i}@bench.example`;
    const session = await signUp(base, email, password);
    const options = await call(base, "GET", "/api/auth/passkey/generate-register-options", { cookie: session });
    const credential = authenticator.create(options.data);
    const registered = await call(base, "POST", "/api/auth/passkey/verify-registration", {
      body: { response: credential, name: "bench" },
      cookie: mergeCookies(session, options.cookie),
    });
    if (registered.data?.credentialID !== credential.id) throw new Error(`verify-registration answered another passkey: ${JSON.stringify(registered.data)}`);
    return email;
  });
  return { authenticator, emails };
}

/**
 * One passkey sign-in: `passkey/generate-authenticate-options` (the challenge, and its signed cookie), then
 * `passkey/verify-authentication` with a discoverable passkey's assertion (user verified: both factors, no
 * second step), which opens the session. The connections take the passkeys in turn.
 */
export function passkeySignInSteps(base, authenticator) {
  let turn = 0;
  return [
    {
      name: "passkey/generate-authenticate-options",
      method: "GET",
      path: "/api/auth/passkey/generate-authenticate-options",
      accept(status, body, headers, context) {
        if (status !== 200) return `passkey/generate-authenticate-options ${status}`;
        context.options = JSON.parse(body);
        context.cookie = cookieHeaderOf(headers["set-cookie"]);
        return true;
      },
    },
    {
      name: "passkey/verify-authentication",
      method: "POST",
      path: "/api/auth/passkey/verify-authentication",
      headers: postHeaders(base),
      build(context) {
        const response = authenticator.assert(context.options, turn++);
        return { headers: { cookie: context.cookie }, body: JSON.stringify({ response }) };
      },
      accept(status, body) {
        if (status !== 200) return `passkey/verify-authentication ${status}`;
        if (!JSON.parse(body).session?.token) return "passkey/verify-authentication: no session";
        return true;
      },
    },
  ];
}

/** One passkey sign-in through fetch, checked (before the load): answers the session's user. */
export async function checkPasskeySignIn(base, authenticator, emails) {
  const options = await call(base, "GET", "/api/auth/passkey/generate-authenticate-options");
  const signedIn = await call(base, "POST", "/api/auth/passkey/verify-authentication", {
    body: { response: authenticator.assert(options.data, 0) },
    cookie: options.cookie,
  });
  const session = await call(base, "GET", "/api/auth/get-session", { cookie: signedIn.cookie });
  if (!emails.includes(session.data?.user?.email)) throw new Error(`the passkey sign-in's session is no seeded user's: ${JSON.stringify(session.data)}`);
  return session.data.user;
}
