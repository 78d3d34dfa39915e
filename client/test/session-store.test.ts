import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createCookieJar, type SessionState } from "../src/index.js";
import { flushIO, nodeClient, PASSWORD, signUpFresh, startTestServer, valueMatching, type TestServer } from "./helpers.js";

const loaded = (state: SessionState) => !state.isPending && !state.isRefetching;

describe("the session store against a real server", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer("sqlite");
  });
  afterAll(async () => server?.close());
  afterEach(() => {
    vi.useRealTimers();
  });

  /**
   * Only setTimeout is faked: it drives the watcher's 10 ms delay and nanostores' 1000 ms unmount delay.
   * The network, setImmediate and microtasks stay real, so calls to the server complete on their own.
   */
  const fakeTimeouts = () => vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });

  it("fetches /get-session on first subscribe, not before", async () => {
    const { client, sessionFetches } = nodeClient(server.url);
    await flushIO();
    expect(sessionFetches()).toBe(0);
    const seen: SessionState[] = [];
    const unbind = client.$session.subscribe((state) => void seen.push(state));
    expect(seen[0]).toEqual({ data: null, error: null, isPending: true, isRefetching: false });
    const state = await valueMatching(client.$session, loaded);
    expect(state).toEqual({ data: null, error: null, isPending: false, isRefetching: false });
    expect(sessionFetches()).toBe(1);
    unbind();
  });

  it("re-fetches 10 ms after a successful sign-up, sign-out and sign-in", async () => {
    fakeTimeouts();
    const { client, sessionFetches } = nodeClient(server.url);
    const unbind = client.$session.listen(() => undefined);
    await valueMatching(client.$session, loaded);
    const signal = client.$sessionSignal;

    const { email } = await signUpFresh(client);
    // The signal waits 10 ms after the call, so nothing has happened yet.
    expect(signal.get()).toBe(0);
    expect(client.$session.get().data).toBeNull();
    vi.advanceTimersByTime(9);
    expect(signal.get()).toBe(0);
    expect(sessionFetches()).toBe(1);
    vi.advanceTimersByTime(1);
    expect(signal.get()).toBe(1);
    expect(client.$session.get().isRefetching).toBe(true);
    const signedUp = await valueMatching(client.$session, (s) => loaded(s) && s.data !== null);
    expect(signedUp.data?.user.email).toBe(email);
    expect(sessionFetches()).toBe(2);

    expect((await client.signOut()).error).toBeNull();
    vi.advanceTimersByTime(10);
    expect(signal.get()).toBe(2);
    const signedOut = await valueMatching(client.$session, (s) => loaded(s) && s.data === null);
    expect(signedOut.error).toBeNull();

    expect((await client.signIn.email({ email, password: PASSWORD })).error).toBeNull();
    vi.advanceTimersByTime(10);
    const signedIn = await valueMatching(client.$session, (s) => loaded(s) && s.data !== null);
    expect(signedIn.data?.user.email).toBe(email);
    expect(sessionFetches()).toBe(4);
    unbind();
  });

  it("does not re-fetch after a failed sign-in or a call that does not change the session", async () => {
    fakeTimeouts();
    const { email } = await signUpFresh(nodeClient(server.url).client);
    const { client, sessionFetches } = nodeClient(server.url);
    const unbind = client.$session.listen(() => undefined);
    await valueMatching(client.$session, loaded);

    expect((await client.signIn.email({ email, password: "wrong password" })).error?.status).toBe(401);
    expect((await client.ok()).error).toBeNull();
    vi.advanceTimersByTime(50);
    await flushIO();
    expect(client.$sessionSignal.get()).toBe(0);
    expect(sessionFetches()).toBe(1);
    unbind();
  });

  it("re-fetches after update-user, also when called through $fetch", async () => {
    fakeTimeouts();
    const { client } = nodeClient(server.url);
    await signUpFresh(client);
    const unbind = client.$session.listen(() => undefined);
    await valueMatching(client.$session, (s) => loaded(s) && s.data !== null);

    await client.updateUser({ name: "Renamed" });
    vi.advanceTimersByTime(10);
    expect((await valueMatching(client.$session, (s) => s.data?.user.name === "Renamed")).error).toBeNull();

    await client.$fetch("/update-user", { body: { name: "Fetched" } });
    vi.advanceTimersByTime(10);
    expect((await valueMatching(client.$session, (s) => s.data?.user.name === "Fetched")).isPending).toBe(false);
    unbind();
  });

  it("drops an idle subscription 1000 ms after its last listener leaves", async () => {
    fakeTimeouts();
    const { client, sessionFetches } = nodeClient(server.url);
    await signUpFresh(client);
    vi.advanceTimersByTime(10); // the sign-up's signal; nobody listens yet
    expect(sessionFetches()).toBe(0);

    let unbind = client.$session.listen(() => undefined);
    await valueMatching(client.$session, loaded);
    expect(sessionFetches()).toBe(1);

    // Within the delay the store stays mounted: a new listener causes no fetch...
    unbind();
    vi.advanceTimersByTime(980);
    unbind = client.$session.listen(() => undefined);
    await flushIO();
    expect(sessionFetches()).toBe(1);
    unbind();
    // ...and a signal still makes it fetch, with no listener at all (the signal fires at 990 ms).
    await client.updateUser({ name: "Still watched" });
    vi.advanceTimersByTime(10);
    await flushIO();
    expect(sessionFetches()).toBe(2);
    await valueMatching(client.$session, (s) => s.data?.user.name === "Still watched");
    expect(sessionFetches()).toBe(2);

    // Once 1000 ms have passed without listeners, the store stops following the signal.
    vi.advanceTimersByTime(1000);
    await client.updateUser({ name: "Unwatched" });
    vi.advanceTimersByTime(10);
    await flushIO();
    expect(client.$sessionSignal.get()).toBe(3);
    expect(sessionFetches()).toBe(2);

    // The next subscriber mounts it again, which fetches afresh.
    unbind = client.$session.listen(() => undefined);
    const fresh = await valueMatching(client.$session, (s) => loaded(s) && s.data?.user.name === "Unwatched");
    expect(fresh.error).toBeNull();
    expect(sessionFetches()).toBe(3);
    unbind();
  });

  it("refetch() reads the session now and flags isRefetching meanwhile", async () => {
    const jar = createCookieJar();
    const { client } = nodeClient(server.url, { jar });
    const other = nodeClient(server.url, { jar }).client;
    fakeTimeouts(); // the sign-up's watcher signal never fires: the only fetches are the test's own
    await signUpFresh(client);
    const unbind = client.$session.listen(() => undefined);
    await valueMatching(client.$session, (s) => loaded(s) && s.data !== null);

    // Another client on the same cookie renames the user; this store cannot know until it refetches.
    await other.updateUser({ name: "Changed elsewhere" });
    const refetched = client.$session.refetch();
    expect(client.$session.get()).toMatchObject({ isPending: false, isRefetching: true });
    await refetched;
    expect(client.$session.get()).toMatchObject({ isRefetching: false, data: { user: { name: "Changed elsewhere" } } });
    unbind();
  });

  it("lets the newest fetch win when an older one answers last", async () => {
    // The first read's answer (signed in) is held back until a later read (signed out) has landed.
    let hold: Promise<void> | undefined;
    let release = () => undefined as void;
    let arrived = () => undefined as void;
    const heldAnswerArrived = new Promise<void>((resolve) => (arrived = resolve));
    const jar = createCookieJar({
      fetch: async (url, init) => {
        const gate = hold;
        const response = await globalThis.fetch(url, init);
        if (gate) {
          arrived();
          await gate;
        }
        return response;
      },
    });
    const { client } = nodeClient(server.url, { jar });
    const other = nodeClient(server.url, { jar }).client;
    fakeTimeouts(); // no watcher signal fires in this test: every fetch is the test's own
    await signUpFresh(client);
    const unbind = client.$session.listen(() => undefined);
    await valueMatching(client.$session, (s) => loaded(s) && s.data !== null);

    hold = new Promise<void>((resolve) => (release = resolve));
    const older = client.$session.refetch();
    await heldAnswerArrived;
    hold = undefined;
    await other.signOut();
    await client.$session.refetch();
    expect(client.$session.get().data).toBeNull();

    release();
    await older;
    expect(client.$session.get()).toMatchObject({ data: null, isRefetching: false });
    unbind();
  });

  it("keeps the last session and reports the error when a fetch fails", async () => {
    // The network goes away between two reads; the server itself is untouched.
    let offline = false;
    const jar = createCookieJar({
      fetch: (url, init) => (offline ? Promise.reject(new TypeError("fetch failed")) : globalThis.fetch(url, init)),
    });
    const { client } = nodeClient(server.url, { jar });
    fakeTimeouts(); // the sign-up's watcher signal never fires: the only fetches are the test's own
    const { email } = await signUpFresh(client);
    const unbind = client.$session.listen(() => undefined);
    await valueMatching(client.$session, (s) => loaded(s) && s.data !== null);

    offline = true;
    await client.$session.refetch();
    expect(client.$session.get()).toMatchObject({
      data: { user: { email } },
      error: { status: 0, code: "NETWORK_ERROR", message: "fetch failed" },
      isPending: false,
      isRefetching: false,
    });

    offline = false;
    await client.$session.refetch();
    expect(client.$session.get()).toMatchObject({ data: { user: { email } }, error: null });
    unbind();
  });
});
