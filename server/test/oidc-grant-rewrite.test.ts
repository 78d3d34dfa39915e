import { createHash, randomBytes } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GRANT_LIFE } from "../src/oidc-provider/grants.js";
import { DIALECTS } from "./helpers/databases.js";
import { signUp, TestClient } from "./helpers/http-client.js";
import { startTestServer, type TestServer } from "./helpers/server.js";

const REDIRECT = "http://127.0.0.1:9/callback";

/**
 * A first-party application's grant (service.ts loadExistingGrant) is written when it is new or gains something,
 * and otherwise at most once a day: an authorization that changes nothing writes no row (each write left a dead row
 * version in every index on PostgreSQL, and repeated authorizations piled them up on one row).
 */
describe.each(DIALECTS)("a first-party grant is not written again by an authorization that changes nothing (%s)", (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(
      dialect,
      {
        oidcProvider: {
          trustedClients: [
            { clientId: "forum", clientSecret: "forum-secret-that-is-long-enough-0123456789", name: "Forum", type: "web", redirectURLs: [REDIRECT], skipConsent: true },
          ],
        },
      },
    );
  });
  afterAll(() => server?.close());

  /** Follows the redirects of an authorization request inside the service until the one back to the application. */
  async function authorize(browser: TestClient, scope: string): Promise<string> {
    const verifier = randomBytes(32).toString("base64url");
    const query = new URLSearchParams({
      client_id: "forum",
      response_type: "code",
      redirect_uri: REDIRECT,
      scope,
      state: randomBytes(8).toString("hex"),
      code_challenge: createHash("sha256").update(verifier).digest("base64url"),
      code_challenge_method: "S256",
    });
    let url = new URL(`/api/auth/oauth2/authorize?${query}`, server.url).href;
    for (let hops = 0; hops < 20; hops++) {
      if (url.startsWith(REDIRECT)) return new URL(url).searchParams.get("code")!;
      const absolute = new URL(url);
      const response = await browser.get(absolute.pathname.slice("/api/auth".length) + absolute.search);
      const location = response.headers.get("location");
      if (!location) throw new Error(`no redirect from ${absolute.pathname}: ${response.status} ${response.text.slice(0, 200)}`);
      url = new URL(location, absolute).href;
    }
    throw new Error("too many redirects");
  }

  /** The user's grant row for the application, as stored. */
  async function grantRow(userId: string) {
    const { rows } = await sql<{ key: string; payload: string; expiresAt: unknown }>`
      select "key", "payload", "expiresAt" from "oidcPayload" where "accountId" = ${userId} and "model" = 'Grant'`.execute(
      server.gatehouse.database.db as any,
    );
    expect(rows).toHaveLength(1);
    return rows[0]!;
  }

  /** Makes the stored grant look saved `agoSeconds` ago: its expiry a year from then, in the payload and the row. */
  async function backdate(key: string, agoSeconds: number) {
    const db = server.gatehouse.database.db as any;
    const { rows } = await sql<{ payload: string }>`select "payload" from "oidcPayload" where "key" = ${key}`.execute(db);
    const payload = JSON.parse(rows[0]!.payload);
    const exp = Math.floor(Date.now() / 1000) - agoSeconds + GRANT_LIFE;
    payload.exp = exp;
    payload.iat = exp - GRANT_LIFE;
    const expiresAt = new Date(exp * 1000);
    await sql`update "oidcPayload" set "payload" = ${JSON.stringify(payload)}, "expiresAt" = ${dialect === "postgres" ? expiresAt : expiresAt.toISOString()} where "key" = ${key}`.execute(db);
    return exp;
  }
  const expOf = (row: { payload: string }) => JSON.parse(row.payload).exp as number;

  it("writes the grant at the first authorization, not at the next ones, again when it gains a scope, and after a day", async () => {
    const browser = new TestClient(`${server.url}/api/auth`);
    const { user } = await signUp(browser);

    expect(await authorize(browser, "openid profile")).toBeTruthy();
    const first = await grantRow(user.id);
    expect(JSON.parse(first.payload).openid.scope.split(" ").sort()).toEqual(["openid", "profile"]);

    // Saved an hour ago: the same request again, twice, gets a code each time and leaves the row as it is.
    const anHourAgo = await backdate(first.key, 3_600);
    const before = await grantRow(user.id);
    expect(await authorize(browser, "openid profile")).toBeTruthy();
    expect(await authorize(browser, "openid")).toBeTruthy();
    expect(await grantRow(user.id)).toEqual(before);
    expect(expOf(before)).toBe(anHourAgo);

    // A scope it did not hold: written, with the scope, a year from now.
    expect(await authorize(browser, "openid profile email")).toBeTruthy();
    const grown = await grantRow(user.id);
    expect(grown.key).toBe(first.key);
    expect(JSON.parse(grown.payload).openid.scope.split(" ").sort()).toEqual(["email", "openid", "profile"]);
    expect(expOf(grown)).toBeGreaterThan(anHourAgo);

    // Saved a day and an hour ago: the same request renews it (a year from this authorization), scopes kept.
    const aDayAgo = await backdate(first.key, 25 * 3_600);
    expect(await authorize(browser, "openid")).toBeTruthy();
    const renewed = await grantRow(user.id);
    expect(expOf(renewed)).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000) + GRANT_LIFE - 5);
    expect(expOf(renewed)).toBeGreaterThan(aDayAgo);
    expect(JSON.parse(renewed.payload).openid.scope.split(" ").sort()).toEqual(["email", "openid", "profile"]);
  });
});
