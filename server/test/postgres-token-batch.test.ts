import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StoredPayload } from "../src/oidc-provider/store/models.js";
import type { OidcRepositories } from "../src/oidc-provider/store/index.js";
import { startTestServer, type TestServer } from "./helpers/server.js";

/**
 * oidc-provider/store/payloads.ts on PostgreSQL: the token reads and the token responses' writes of one turn of the
 * event loop go to the database as one statement each (storage/turn-batch.ts), and each still answers as its own
 * statement would: a token spent once, a failing write failing alone, an expiry checked at its own request's time.
 */
describe("PostgreSQL token batches (oidc-provider/store/payloads.ts)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer("postgres");
  });
  afterAll(async () => {
    await server?.close();
  });

  const payloads = () => (server.gatehouse.runtime.stores as unknown as OidcRepositories).oidcPayloads;
  const db = () => server.gatehouse.database.db as any;
  const hour = () => new Date(Date.now() + 3_600_000);

  const row = (key: string, model = "AccessToken", fields: Partial<StoredPayload> = {}): StoredPayload => ({
    key,
    model,
    payload: { scope: "openid", note: "it's \"quoted\" \\ and \u00e9" },
    grantId: "grant-1",
    uid: null,
    accountId: "user-1",
    clientId: "client-1",
    expiresAt: hour(),
    consumedAt: null,
    ...fields,
  });
  const fresh = (prefix: string) => `${prefix}:${randomBytes(9).toString("base64url")}`;
  const event = (id: string) => ({
    table: "event",
    values: { id, type: "oidc_token.issued", createdAt: new Date().toISOString(), actorId: null, userId: "user-1", organizationId: null, ipAddress: null, userAgent: null, data: "{}" },
  });

  /** The transactions that wrote these rows (rows written by one statement share its transaction id). */
  const writers = async (keys: readonly string[]) => {
    const { rows } = await sql<{ n: string }>`select count(distinct xmin::text) as n from "oidcPayload" where key in (${sql.join(keys)})`.execute(
      db(),
    );
    return Number(rows[0]!.n);
  };
  const stored = async (keys: readonly string[]) =>
    (await sql<{ key: string; consumedAt: unknown }>`select key, "consumedAt" from "oidcPayload" where key in (${sql.join(keys)})`.execute(db()))
      .rows;

  it("writes the token responses of one turn in one statement, and those of separate turns each in its own", async () => {
    const together = Array.from({ length: 30 }, () => fresh("AccessToken"));
    const results = await Promise.all(together.map((key) => payloads().insertTokens([row(key)])));
    expect(results.every((r) => r === true)).toBe(true);
    expect(await stored(together)).toHaveLength(30);
    expect(await writers(together)).toBe(1);

    const apart: string[] = [];
    for (let i = 0; i < 5; i++) {
      apart.push(fresh("AccessToken"));
      await payloads().insertTokens([row(apart[i]!)]);
    }
    expect(await writers(apart)).toBe(5);
  });

  it("spends a code once when two responses of one turn present it: one is written, the other writes nothing", async () => {
    const code = fresh("AuthorizationCode");
    await payloads().insertTokens([row(code, "AuthorizationCode")]);
    const now = new Date();
    const tokens = Array.from({ length: 6 }, () => fresh("AccessToken"));
    const others = Array.from({ length: 6 }, () => fresh("AccessToken"));
    const results = await Promise.all([
      ...tokens.map((key) => payloads().insertTokens([row(key)], [], { key: code, now })),
      ...others.map((key) => payloads().insertTokens([row(key)])),
    ]);
    expect(results.slice(0, 6).filter((r) => r === true)).toHaveLength(1);
    expect(results.slice(6).every((r) => r === true)).toBe(true);
    const winner = tokens[results.indexOf(true)]!;
    expect((await stored(tokens)).map((r) => r.key)).toEqual([winner]);
    expect(await stored(others)).toHaveLength(6);
    expect((await stored([code]))[0]!.consumedAt).not.toBeNull();

    // Spent already: refused, nothing written, in a batch or alone.
    const late = [fresh("AccessToken"), fresh("AccessToken")];
    const lateResults = await Promise.all([
      payloads().insertTokens([row(late[0]!)], [], { key: code, now }),
      payloads().insertTokens([row(fresh("AccessToken"))]),
    ]);
    expect(lateResults[0]).toBe(false);
    expect(await payloads().insertTokens([row(late[1]!)], [], { key: code, now })).toBe(false);
    expect(await stored(late)).toHaveLength(0);
  });

  it("fails a write that cannot be made alone: the others of its turn are written, its own token is not spent", async () => {
    const taken = fresh("AccessToken");
    await payloads().insertTokens([row(taken)]);
    const code = fresh("AuthorizationCode");
    const otherCode = fresh("AuthorizationCode");
    await payloads().insertTokens([row(code, "AuthorizationCode"), row(otherCode, "AuthorizationCode")]);
    const now = new Date();
    const good = [fresh("AccessToken"), fresh("RefreshToken")];
    const failing = fresh("RefreshToken");
    const eventIds = [fresh("ev"), fresh("ev")];
    const settled = await Promise.allSettled([
      // Its second row's key is taken: the whole response fails, its code stays unspent.
      payloads().insertTokens([row(failing, "RefreshToken"), row(taken)], [event(eventIds[0]!)], { key: code, now }),
      payloads().insertTokens([row(good[0]!), row(good[1]!, "RefreshToken")], [event(eventIds[1]!)], { key: otherCode, now }),
    ]);
    expect(settled[0].status).toBe("rejected");
    expect(settled[1]).toEqual({ status: "fulfilled", value: true });
    expect(await stored([failing])).toHaveLength(0);
    expect((await stored([code]))[0]!.consumedAt).toBeNull();
    expect((await stored([otherCode]))[0]!.consumedAt).not.toBeNull();
    expect(await stored(good)).toHaveLength(2);
    const events = await sql<{ id: string }>`select id from event where id in (${sql.join(eventIds)})`.execute(db());
    expect(events.rows.map((r) => r.id)).toEqual([eventIds[1]]);
  });

  it("keeps each row's values and writes a turn's events in the order they were handed in", async () => {
    const key = fresh("RefreshToken");
    const ids = Array.from({ length: 8 }, () => fresh("ev"));
    await Promise.all(ids.map((id, i) => payloads().insertTokens(i === 0 ? [row(key, "RefreshToken")] : [], [event(id)])));
    const found = await payloads().findPayload(key, new Date());
    expect(found?.payload).toEqual({ scope: "openid", note: "it's \"quoted\" \\ and \u00e9" });
    expect(found?.expiresAt?.getTime()).toBeGreaterThan(Date.now());
    const order = await sql<{ id: string }>`select id from event where id in (${sql.join(ids)}) order by seq`.execute(db());
    expect(order.rows.map((r) => r.id)).toEqual(ids);
  });

  it("reads a turn's tokens in one statement, each as of its own request's time", async () => {
    const soon = new Date(Date.now() + 60_000);
    const grantId = randomBytes(6).toString("hex");
    const token = fresh("AccessToken");
    const shortGrant = randomBytes(6).toString("hex");
    const withShortGrant = fresh("AccessToken");
    const expiring = fresh("AccessToken");
    await payloads().upsertPayload(row(`Grant:${grantId}`, "Grant", { grantId: null }));
    await payloads().upsertPayload(row(`Grant:${shortGrant}`, "Grant", { grantId: null, expiresAt: soon }));
    await payloads().insertTokens([row(token, "AccessToken", { grantId }), row(withShortGrant, "AccessToken", { grantId: shortGrant })]);
    await payloads().insertTokens([row(expiring, "AccessToken", { grantId, expiresAt: soon })]);

    const before = new Date(soon.getTime() - 1000);
    const after = new Date(soon.getTime() + 1000);
    const [a, b, c, d, e, f] = await Promise.all([
      payloads().findTokenBundle(token, before),
      payloads().findTokenBundle(expiring, before),
      payloads().findTokenBundle(expiring, after),
      payloads().findTokenBundle(withShortGrant, before),
      payloads().findTokenBundle(withShortGrant, after),
      payloads().findTokenBundle(fresh("AccessToken"), before),
    ]);
    expect(a?.token.key).toBe(token);
    expect(a?.grant?.key).toBe(`Grant:${grantId}`);
    expect(b?.token.key).toBe(expiring);
    expect(c).toBeNull();
    expect(d?.grant?.key).toBe(`Grant:${shortGrant}`);
    expect(e?.token.key).toBe(withShortGrant);
    expect(e?.grant).toBeNull();
    expect(f).toBeNull();
    // Two requests reading one token get objects of their own.
    const [g, h] = await Promise.all([payloads().findTokenBundle(token, before), payloads().findTokenBundle(token, before)]);
    expect(g).toEqual(h);
    expect(g).not.toBe(h);
    expect(g!.token.payload).not.toBe(h!.token.payload);
  });
});
