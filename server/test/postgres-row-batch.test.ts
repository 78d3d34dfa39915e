import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PasskeyRepositories } from "../src/passkey/store/index.js";
import type { Session } from "../src/storage/models.js";
import { TestClient, signUp } from "./helpers/http-client.js";
import { startTestServer, type TestServer } from "./helpers/server.js";

/**
 * PostgreSQL's per-turn statements of sign-ins (storage/pg-row-batch.ts, passkey/store/passkeys.ts): the sessions
 * and challenges written in one turn of the event loop go as one statement, and the challenges taken by the passkey
 * sign-ins of one turn too; each still answers as its own statement would: a row whose key is taken fails alone, a
 * challenge is taken once, events keep their order.
 */
describe("PostgreSQL sign-in batches (storage/pg-row-batch.ts)", () => {
  let server: TestServer;
  let userId: string;
  beforeAll(async () => {
    server = await startTestServer("postgres");
    userId = (await signUp(new TestClient(server.base))).user.id;
  });
  afterAll(async () => {
    await server?.close();
  });

  const runtime = () => server.gatehouse.runtime;
  const db = () => server.gatehouse.database.db as any;
  const fresh = (prefix: string) => `${prefix}-${randomBytes(9).toString("base64url")}`;
  const session = (fields: Partial<Session> = {}): Session => ({
    id: fresh("s"),
    token: fresh("t"),
    userId,
    expiresAt: new Date(Date.now() + 3_600_000),
    ipAddress: "203.0.113.9",
    userAgent: "it's \"quoted\" \\ and \u00e9",
    createdAt: new Date(),
    updatedAt: new Date(),
    activeOrganizationId: null,
    activeTeamId: null,
    impersonatedBy: null,
    loginMethod: "email",
    factors: ["password", "totp"],
    ...fields,
  });
  const event = (id: string, at: Date) => ({
    table: "event",
    values: { id, type: "sign_in.succeeded", createdAt: at.toISOString(), actorId: userId, userId, organizationId: null, ipAddress: null, userAgent: null, data: "{}" },
  });
  /** The transactions that wrote these sessions (rows written by one statement share its transaction id). */
  const writers = async (ids: readonly string[]) =>
    Number(
      (await sql<{ n: string }>`select count(distinct xmin::text) as n from "session" where id in (${sql.join(ids)})`.execute(db())).rows[0]!.n,
    );

  it("writes the sessions of one turn in one statement, those of separate turns each in its own, every value kept", async () => {
    const together = Array.from({ length: 30 }, () => session());
    await Promise.all(together.map((s) => runtime().stores.sessions.createSession(s)));
    expect(await writers(together.map((s) => s.id))).toBe(1);
    for (const s of together) expect(await runtime().stores.sessions.findSessionAndUser(s.token)).toMatchObject({ session: s });

    const apart: Session[] = [];
    for (let i = 0; i < 4; i++) {
      apart.push(session());
      await runtime().stores.sessions.createSession(apart[i]!);
    }
    expect(await writers(apart.map((s) => s.id))).toBe(4);
  });

  it("fails only the session whose key is taken: its neighbours and their events are written, its event is not", async () => {
    const taken = session();
    await runtime().stores.sessions.createSession(taken);
    const at = new Date();
    const sessions = [session(), session({ id: taken.id }), session()];
    const events = sessions.map(() => fresh("e"));
    const results = await Promise.allSettled(sessions.map((s, i) => runtime().stores.sessions.createSession(s, [event(events[i]!, at)])));
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(((results[1] as PromiseRejectedResult).reason as { code?: string }).code).toBe("23505");
    const written = await sql<{ id: string }>`select id from "event" where id in (${sql.join(events)})`.execute(db());
    expect(written.rows.map((r) => r.id).sort()).toEqual([events[0], events[2]].sort());
    expect(await runtime().stores.sessions.findSessionAndUser(sessions[1]!.token)).toBeNull();
  });

  it("keeps the order of the events written in one turn (their seq follows it)", async () => {
    const at = new Date();
    const events = Array.from({ length: 12 }, () => fresh("e"));
    await Promise.all(events.map((id) => runtime().stores.sessions.createSession(session(), [event(id, at)])));
    const { rows } = await sql<{ id: string }>`select id from "event" where id in (${sql.join(events)}) order by seq`.execute(db());
    expect(rows.map((r) => r.id)).toEqual(events);
  });

  it("writes the challenges of one turn in one statement", async () => {
    const now = new Date();
    const ids = Array.from({ length: 10 }, () => fresh("v"));
    await Promise.all(
      ids.map((id) =>
        runtime().stores.verifications.createVerification({
          id,
          identifier: `probe:${id}`,
          value: `{"n":"${id}"}`,
          expiresAt: new Date(now.getTime() + 300_000),
          createdAt: now,
          updatedAt: now,
        }),
      ),
    );
    const { rows } = await sql<{ n: string }>`select count(distinct xmin::text) as n from "verification" where id in (${sql.join(ids)})`.execute(db());
    expect(Number(rows[0]!.n)).toBe(1);
    for (const id of ids) expect((await runtime().stores.verifications.findVerification(`probe:${id}`))?.value).toBe(`{"n":"${id}"}`);
  });

  describe("passkey sign-ins' reads (passkey/store/passkeys.ts)", () => {
    const passkeys = () => (runtime().stores as unknown as PasskeyRepositories).passkeys;
    const challenge = async (identifier: string, expiresAt = new Date(Date.now() + 300_000)) => {
      const now = new Date();
      await runtime().stores.verifications.createVerification({
        id: fresh("v"),
        identifier,
        value: JSON.stringify({ type: "authentication", challenge: identifier, userId: null }),
        expiresAt,
        createdAt: now,
        updatedAt: now,
      });
    };

    it("gives a challenge presented six times in one turn to exactly one, and each other challenge to its own", async () => {
      const shared = fresh("passkey-challenge:");
      const own = Array.from({ length: 5 }, () => fresh("passkey-challenge:"));
      await Promise.all([shared, ...own].map((identifier) => challenge(identifier)));
      const now = new Date();
      const taken = await Promise.all([
        ...Array.from({ length: 6 }, () => passkeys().takeChallengeAndFindPasskey(shared, "no-such-credential", now)),
        ...own.map((identifier) => passkeys().takeChallengeAndFindPasskey(identifier, "no-such-credential", now)),
      ]);
      expect(taken.slice(0, 6).filter((t) => t.challenge !== null)).toHaveLength(1);
      taken.slice(6).forEach((t, i) => expect(JSON.parse(t.challenge!.value).challenge).toBe(own[i]));
      expect(taken.every((t) => t.found === null)).toBe(true);
      // Taken is gone: presented again, none is found.
      const again = await Promise.all([shared, ...own].map((identifier) => passkeys().takeChallengeAndFindPasskey(identifier, "x", new Date())));
      expect(again.every((t) => t.challenge === null)).toBe(true);
    });

    it("checks each challenge's expiry at its own request's time, and still takes an expired one", async () => {
      const expiring = fresh("passkey-challenge:");
      const expiresAt = new Date(Date.now() + 60_000);
      await challenge(expiring, expiresAt);
      const later = new Date(expiresAt.getTime() + 1);
      const [late] = await Promise.all([passkeys().takeChallengeAndFindPasskey(expiring, "x", later)]);
      expect(late!.challenge).toBeNull();
      expect(await runtime().stores.verifications.findVerification(expiring)).toBeNull();
    });
  });
});
