import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emitEvent, systemEventSource } from "../src/events/emit.js";
import { pruneEvents } from "../src/events/prune.js";
import type { StoredEvent } from "../src/events/store/index.js";
import { csvCell } from "../src/events/csv.js";
import { EVENT_TYPES, typesMatching } from "../src/events/types.js";
import { totpCode } from "../src/two-factor/totp.js";
import { signUpAdmin } from "./helpers/admin.js";
import { manualClock } from "./helpers/clock.js";
import { DIALECTS } from "./helpers/databases.js";
import { PASSWORD, signUp, TestClient, uniqueEmail } from "./helpers/http-client.js";
import { startTestServer, type TestServer } from "./helpers/server.js";

const DAY = 86_400_000;
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36";

/** The user's events, oldest first, read through the store (what the routes read). */
async function eventsOf(server: TestServer, userId: string): Promise<StoredEvent[]> {
  return (await server.gatehouse.runtime.stores.events.list({ userId }, 1000)).reverse();
}

describe("event types", () => {
  it("are noun.past_verb, listed once each", () => {
    expect(new Set(EVENT_TYPES).size).toBe(EVENT_TYPES.length);
    for (const type of EVENT_TYPES) expect(type).toMatch(/^[a-z_]+\.[a-z_]+$/);
  });

  it("filters match exact types, prefixes and everything", () => {
    expect(typesMatching("user.banned")).toEqual(["user.banned"]);
    expect(typesMatching("sign_in.*")).toEqual(["sign_in.succeeded", "sign_in.failed"]);
    expect(typesMatching("*")).toHaveLength(EVENT_TYPES.length);
    expect(typesMatching("user.nothing")).toEqual([]);
    expect(typesMatching("nothing.*")).toEqual([]);
  });

  it("CSV cells a spreadsheet would run as formulas are shown as text", () => {
    expect(csvCell("=HYPERLINK(\"x\")")).toBe(`"'=HYPERLINK(""x"")"`);
    for (const start of ["+", "-", "@", "\t", "\r"]) expect(csvCell(`${start}1`)).toBe(`"'${start}1"`);
    expect(csvCell("plain, \"quoted\"\nline")).toBe(`"plain, ""quoted""\nline"`);
  });
});

describe.each(DIALECTS)("security events on %s", (dialect) => {
  let server: TestServer;
  const clock = manualClock();
  beforeAll(async () => {
    server = await startTestServer(dialect, {}, { now: clock.now });
  });
  afterAll(async () => server?.close());
  const client = () => new TestClient(server.base);

  it("sign-up writes user.created and sign_in.succeeded with the request's address and browser", async () => {
    const c = client();
    const email = uniqueEmail("events");
    const res = await c.post("/sign-up/email", { name: "Ev", email, password: PASSWORD }, { headers: { "user-agent": BROWSER } });
    expect(res.status).toBe(200);
    const userId = res.body.user.id as string;
    const events = await eventsOf(server, userId);
    expect(events.map((e) => e.type)).toEqual(["user.created", "sign_in.succeeded"]);
    const [created, signedIn] = events as [StoredEvent, StoredEvent];
    expect(created).toMatchObject({ actorId: userId, userId, organizationId: null, userAgent: BROWSER, ipAddress: "127.0.0.1" });
    expect(created.data).toEqual({ method: "sign-up", email });
    expect(signedIn.data).toMatchObject({ method: "email", factors: ["password"] });
    expect(typeof signedIn.data.sessionId).toBe("string");
    expect(signedIn.seq).toBeGreaterThan(created.seq);
    expect(created.id).toMatch(/^[A-Za-z0-9]{32}$/);
  });

  it("a password sign-in writes one sign_in.succeeded; get-session writes nothing", async () => {
    const { user, email } = await signUp(client());
    const c = client();
    expect((await c.post("/sign-in/email", { email, password: PASSWORD })).status).toBe(200);
    const before = await eventsOf(server, user.id);
    expect(before.map((e) => e.type)).toEqual(["user.created", "sign_in.succeeded", "sign_in.succeeded"]);
    for (let i = 0; i < 3; i++) expect((await c.get("/get-session")).status).toBe(200);
    expect(await eventsOf(server, user.id)).toHaveLength(3);
  });

  it("a wrong password writes sign_in.failed with a reason and nothing typed; an unknown address names nobody", async () => {
    const { user, email } = await signUp(client());
    const wrong = "wrong password 12345";
    expect((await client().post("/sign-in/email", { email, password: wrong })).status).toBe(401);
    const failed = (await eventsOf(server, user.id)).filter((e) => e.type === "sign_in.failed");
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ actorId: null, userId: user.id, data: { method: "email", reason: "invalid_credentials" } });
    expect(JSON.stringify(failed[0])).not.toContain(wrong);

    const nobody = uniqueEmail("nobody");
    const before = await server.gatehouse.runtime.stores.events.list({ types: ["sign_in.failed"] }, 1);
    expect((await client().post("/sign-in/email", { email: nobody, password: wrong })).status).toBe(401);
    const [latest] = await server.gatehouse.runtime.stores.events.list({ types: ["sign_in.failed"] }, 1);
    expect(latest!.seq).toBeGreaterThan(before[0]!.seq);
    expect(latest).toMatchObject({ userId: null, actorId: null, data: { method: "email", reason: "invalid_credentials" } });
    expect(JSON.stringify(latest)).not.toContain(nobody);
    expect(JSON.stringify(latest)).not.toContain(wrong);
  });

  it("an event written in a transaction that rolls back is gone with its change", async () => {
    const { user } = await signUp(client());
    const { stores } = server.gatehouse.runtime;
    const source = systemEventSource(server.gatehouse.runtime);
    await expect(
      stores.transaction(async (tx) => {
        await tx.users.updateUser(user.id, { name: "Rolled back", updatedAt: new Date() });
        await emitEvent(tx, source, "user.updated", { userId: user.id, data: { fields: ["name"] } });
        throw new Error("forced failure after the change");
      }),
    ).rejects.toThrow("forced failure");
    expect((await stores.users.findUserById(user.id))!.name).toBe("Test User");
    expect((await eventsOf(server, user.id)).map((e) => e.type)).not.toContain("user.updated");
  });

  it("prunes events older than the retention, keeping what a module still needs", async () => {
    const { runtime } = server.gatehouse;
    const { user } = await signUp(client());
    const old = await eventsOf(server, user.id);
    expect(old).toHaveLength(2);
    clock.advance(91 * DAY);
    try {
      const { user: fresh } = await signUp(client());
      // A module (an outbox reader) still needs the second of them: nothing from there on goes. The installed
      // modules are left out, so the webhooks' own needs (their test's matter) do not decide here.
      const reader = { ...runtime.modules[0]!, retainEventsFrom: async () => old[1]!.seq };
      const nobodyNeeds = { name: "none", retainEventsFrom: async () => null } as unknown as typeof reader;
      // retentionDays 0 keeps every event, however old.
      const forever = { ...runtime.config, events: { ...runtime.config.events, retentionDays: 0 } };
      expect(await pruneEvents({ ...runtime, config: forever, modules: [nobodyNeeds] })).toBe(0);
      expect(await eventsOf(server, user.id)).toHaveLength(2);
      await pruneEvents({ ...runtime, modules: [reader, nobodyNeeds] });
      expect((await eventsOf(server, user.id)).map((e) => e.seq)).toEqual([old[1]!.seq]);
      await pruneEvents({ ...runtime, modules: [nobodyNeeds] });
      expect(await eventsOf(server, user.id)).toEqual([]);
      expect(await eventsOf(server, fresh.id)).toHaveLength(2);
    } finally {
      clock.reset();
    }
  });

  it("a renewed session keeps the id its sign-in's event names: the sign-in still matches it, and its sign-out ends it", async () => {
    const laptop = client();
    const { email } = await signUp(laptop);
    const phone = client();
    expect((await phone.post("/sign-in/email", { email, password: PASSWORD })).status).toBe(200);
    const current = async (c: TestClient): Promise<{ id: string; token: string }> => (await c.get("/get-session")).body.session;
    /**
     * What the web app's Security activity does: the sign-in event naming `sessionId` in `viewer`'s
     * list-security-events, and the open session list-sessions answers with that id (its token signs it out).
     */
    const match = async (viewer: TestClient, sessionId: string) => {
      const events = (await viewer.get("/list-security-events?type=sign_in.succeeded")).body.events as { data: Record<string, unknown> }[];
      const event = events.find((e) => e.data.sessionId === sessionId);
      const sessions = (await viewer.get("/list-sessions")).body as { id: string; token: string }[];
      return { event, session: sessions.find((s) => event !== undefined && s.id === event.data.sessionId) };
    };

    // The phone turns an authenticator on: its session is renewed (a new token; the old one is gone).
    const phoneBefore = await current(phone);
    const enable = await phone.post("/two-factor/enable", { password: PASSWORD });
    expect(enable.status, enable.text).toBe(200);
    const secret = new URL(enable.body.totpURI as string).searchParams.get("secret")!;
    const confirmed = await phone.post("/two-factor/verify-totp", { code: totpCode(secret, { digits: 6, period: 30 }, clock.now()) });
    expect(confirmed.status, confirmed.text).toBe(200);
    const phoneAfter = await current(phone);
    expect(phoneAfter.token).not.toBe(phoneBefore.token);
    expect(phoneAfter.id).toBe(phoneBefore.id);
    const open = (await laptop.get("/list-sessions")).body as { token: string }[];
    expect(open.map((s) => s.token)).not.toContain(phoneBefore.token);
    // From the laptop, the phone's sign-in is still open, with the renewed session's token: signing it out ends it.
    const fromLaptop = await match(laptop, phoneBefore.id);
    expect(fromLaptop.event).toBeDefined();
    expect(fromLaptop.session?.token).toBe(phoneAfter.token);
    expect((await laptop.post("/revoke-session", { token: fromLaptop.session!.token })).status).toBe(200);
    expect((await phone.get("/get-session")).body).toBeNull();

    // The laptop changes its password, signing the others out: its own session is renewed too, and its sign-up's
    // sign-in is still the one it is in; signing that out ends the laptop's session.
    const laptopBefore = await current(laptop);
    const changed = await laptop.post("/change-password", { currentPassword: PASSWORD, newPassword: "another horse battery", revokeOtherSessions: true });
    expect(changed.status, changed.text).toBe(200);
    const laptopAfter = await current(laptop);
    expect(laptopAfter.token).toBe(changed.body.token);
    expect(laptopAfter.token).not.toBe(laptopBefore.token);
    const own = await match(laptop, laptopBefore.id);
    expect(own.event).toBeDefined();
    expect(own.session?.token).toBe(laptopAfter.token);
    expect((await laptop.post("/revoke-session", { token: own.session!.token })).status).toBe(200);
    expect((await laptop.get("/get-session")).body).toBeNull();
  });

  describe("reads", () => {
    let admin: TestClient;
    let adminId: string;
    beforeAll(async () => {
      admin = client();
      adminId = (await signUpAdmin(server, admin)).user.id;
    });

    it("admin/list-events filters by user and type, newest first, paged by cursor", async () => {
      const c = client();
      const { user, email } = await signUp(c);
      for (let i = 0; i < 3; i++) await client().post("/sign-in/email", { email, password: PASSWORD });
      const first = await admin.get(`/admin/list-events?userId=${user.id}&type=sign_in.*&limit=2`);
      expect(first.status).toBe(200);
      expect(first.body.events).toHaveLength(2);
      expect(first.body.events.map((e: { type: string }) => e.type)).toEqual(["sign_in.succeeded", "sign_in.succeeded"]);
      expect(first.body.events[0].seq).toBeGreaterThan(first.body.events[1].seq);
      expect(first.body.events[0].user).toEqual({ id: user.id, email, name: "Test User" });
      expect(first.body.nextCursor).toBe(String(first.body.events[1].seq));
      const second = await admin.get(`/admin/list-events?userId=${user.id}&type=sign_in.*&limit=2&cursor=${first.body.nextCursor}`);
      expect(second.body.events).toHaveLength(2);
      expect(second.body.nextCursor).toBeNull();
      expect(second.body.events[0].seq).toBeLessThan(first.body.events[1].seq);
      const created = await admin.get(`/admin/list-events?userId=${user.id}&type=user.created`);
      expect(created.body.events).toHaveLength(1);
    });

    it("admin/list-events refuses non-administrators and bad filters", async () => {
      const c = client();
      await signUp(c);
      const refused = await c.get("/admin/list-events");
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe("YOU_ARE_NOT_ALLOWED_TO_LIST_EVENTS");
      expect((await client().get("/admin/list-events")).status).toBe(401);
      for (const query of ["type=user.nothing", "limit=0", "limit=201", "cursor=abc", "from=yesterday"]) {
        const res = await admin.get(`/admin/list-events?${query}`);
        expect(res.status, query).toBe(400);
        expect(res.body.code, query).toBe("VALIDATION_ERROR");
      }
      void adminId;
    });

    it("admin/export-events answers the matching events as CSV, newest first, formulas shown as text", async () => {
      const c = client();
      // A user agent a spreadsheet would run as a formula, and a comma and a quote to escape.
      const agent = '=HYPERLINK("http://evil.example","x"), "quoted"';
      const email = uniqueEmail("csv");
      const signedUp = await c.post("/sign-up/email", { name: "Csv", email, password: PASSWORD }, { headers: { "user-agent": agent } });
      const userId = signedUp.body.user.id as string;
      const res = await admin.get(`/admin/export-events?userId=${userId}`);
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="audit-log-[\d-T]+\.csv"$/);
      const lines = res.text.trimEnd().split("\r\n");
      expect(lines[0]).toBe(
        '"id","seq","createdAt","type","actorId","actorEmail","userId","userEmail","organizationId","ipAddress","userAgent","data"',
      );
      expect(lines).toHaveLength(3);
      expect(lines[1]).toContain('"sign_in.succeeded"');
      expect(lines[2]).toContain('"user.created"');
      expect(lines[2]).toContain(`"${email}"`);
      // The cell starts with an apostrophe, and its quotes are doubled.
      expect(lines[2]).toContain(`"'=HYPERLINK(""http://evil.example"",""x""), ""quoted"""`);
      expect(lines.some((line) => /(^|,)"=/.test(line))).toBe(false);
      const limited = await admin.get(`/admin/export-events?userId=${userId}&limit=1`);
      expect(limited.text.trimEnd().split("\r\n")).toHaveLength(2);
      const refused = await c.get(`/admin/export-events?userId=${userId}`);
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe("YOU_ARE_NOT_ALLOWED_TO_EXPORT_EVENTS");
    });

    it("admin/list-events filters by actor, organization, address and time", async () => {
      const owner = client();
      const { user } = await signUp(owner);
      const slug = `ev-${Math.random().toString(36).slice(2, 10)}`;
      const org = await owner.post("/organization/create", { name: "Ev", slug });
      expect(org.status, org.text).toBe(200);
      const byOrg = await admin.get(`/admin/list-events?organizationId=${org.body.id}`);
      expect(byOrg.body.events.map((e: { type: string }) => e.type)).toEqual(["organization.created"]);
      const byActor = await admin.get(`/admin/list-events?actorId=${user.id}`);
      expect(byActor.body.events.map((e: { type: string }) => e.type)).toEqual(["organization.created", "sign_in.succeeded", "user.created"]);
      expect(byActor.body.events[0].actor).toMatchObject({ id: user.id });
      const other = await admin.get(`/admin/list-events?actorId=${user.id}&ip=10.9.9.9`);
      expect(other.body.events).toEqual([]);
      const here = await admin.get(`/admin/list-events?actorId=${user.id}&ip=127.0.0.1`);
      expect(here.body.events).toHaveLength(3);
      const at = new Date(byOrg.body.events[0].createdAt).getTime();
      const iso = (ms: number) => encodeURIComponent(new Date(ms).toISOString());
      const inRange = await admin.get(`/admin/list-events?actorId=${user.id}&from=${iso(at)}&to=${iso(at + 1)}&type=organization.*`);
      expect(inRange.body.events).toHaveLength(1);
      const before = await admin.get(`/admin/list-events?actorId=${user.id}&to=${iso(at)}&type=organization.*`);
      expect(before.body.events).toHaveLength(0);
    });

    it("organization/list-events: owners and admins read their organization's events, members and outsiders are refused", async () => {
      const owner = client();
      const { user: ownerUser } = await signUp(owner);
      const org = await owner.post("/organization/create", { name: "Ev", slug: `ev-${Math.random().toString(36).slice(2, 10)}` });
      const member = client();
      const { user: memberUser } = await signUp(member);
      const added = await server.gatehouse.api.addMember({
        body: { userId: memberUser.id, role: "member", organizationId: org.body.id },
        headers: { cookie: owner.cookieHeader() },
      });
      await owner.post("/organization/update", { organizationId: org.body.id, data: { name: "Ev 2" } });
      const res = await owner.get(`/organization/list-events?organizationId=${org.body.id}&limit=2`);
      expect(res.status, res.text).toBe(200);
      expect(res.body.events.map((e: { type: string }) => e.type)).toEqual(["organization.updated", "member.added"]);
      expect(res.body.events[1]).toMatchObject({ actorId: ownerUser.id, userId: memberUser.id, data: { memberId: added.id } });
      const rest = await owner.get(`/organization/list-events?organizationId=${org.body.id}&limit=2&cursor=${res.body.nextCursor}`);
      expect(rest.body.events.map((e: { type: string }) => e.type)).toEqual(["organization.created"]);
      expect(rest.body.nextCursor).toBeNull();
      // The active organization by default (creation made it active), filtered by type.
      const members = await owner.get("/organization/list-events?type=member.*");
      expect(members.body.events.map((e: { type: string }) => e.type)).toEqual(["member.added"]);
      const refused = await member.get(`/organization/list-events?organizationId=${org.body.id}`);
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe("YOU_ARE_NOT_ALLOWED_TO_LIST_THIS_ORGANIZATIONS_EVENTS");
      const outsider = client();
      await signUp(outsider);
      const notMember = await outsider.get(`/organization/list-events?organizationId=${org.body.id}`);
      expect(notMember.status).toBe(403);
      expect(notMember.body.code).toBe("YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION");
    });

    it("list-security-events shows the user their own events only", async () => {
      const c = client();
      const { user } = await signUp(c);
      const other = client();
      await signUp(other);
      const res = await c.get("/list-security-events");
      expect(res.status).toBe(200);
      expect(res.body.events.map((e: { type: string }) => e.type)).toEqual(["sign_in.succeeded", "user.created"]);
      expect(res.body.events.every((e: { actor: string }) => e.actor === "self")).toBe(true);
      expect(res.body.events[0]).not.toHaveProperty("userId");
      expect((await client().get("/list-security-events")).status).toBe(401);
      // What an administrator did is marked so, without the administrator's address and browser.
      await admin.post("/admin/update-user", { userId: user.id, data: { name: "Renamed" } }, { headers: { "user-agent": BROWSER } });
      const after = await c.get("/list-security-events?limit=1");
      expect(after.body.events[0]).toMatchObject({ type: "user.updated", actor: "other", ipAddress: null, userAgent: null });
      expect(after.body.nextCursor).not.toBeNull();
      void adminId;
    });
  });
});

describe.each(DIALECTS)("security events turned off on %s", (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect, { events: { enabled: false } });
  });
  afterAll(async () => server?.close());

  it("writes nothing, and the log's routes answer 404", async () => {
    const c = new TestClient(server.base);
    const { user, email } = await signUp(c);
    await new TestClient(server.base).post("/sign-in/email", { email, password: PASSWORD });
    await c.post("/update-user", { name: "Quiet" });
    expect(await server.gatehouse.runtime.stores.events.list({}, 10)).toEqual([]);
    expect((await c.get("/list-security-events")).status).toBe(404);
    void user;
  });
});
