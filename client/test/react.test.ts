import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCookieJar } from "../src/index.js";
import { createAuthClient, useSession, type ReactAuthClient } from "../src/react.js";
import { PASSWORD, startTestServer, uniqueEmail, valueMatching, type TestServer } from "./helpers.js";

/** Renders what a component would show from `useSession()`: pending, signed out, or the user's name. */
function SessionBadge({ client }: { client: ReactAuthClient }) {
  const { data, error, isPending, refetch } = client.useSession();
  if (typeof refetch !== "function") return "no refetch";
  if (isPending) return "pending";
  if (error) return `error ${error.code}`;
  return data ? `signed in as ${data.user.name}` : "signed out";
}

describe("useSession", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer("sqlite");
  });
  afterAll(async () => server?.close());

  function reactClient() {
    const jar = createCookieJar();
    return createAuthClient({ baseURL: server.url, fetch: jar.fetch, headers: { origin: server.url } });
  }

  it("shows the pending state before the first answer", () => {
    const client = reactClient();
    expect(renderToString(createElement(SessionBadge, { client }))).toBe("pending");
  });

  it("shows the signed-in user once the store holds the session", async () => {
    const client = reactClient();
    await client.signUp.email({ name: "Hopper", email: uniqueEmail(), password: PASSWORD });
    const unbind = client.$session.listen(() => undefined);
    await valueMatching(client.$session, (s) => !s.isPending && s.data !== null);
    expect(renderToString(createElement(SessionBadge, { client }))).toBe("signed in as Hopper");
    unbind();
  });

  it("shows signed out after sign-out", async () => {
    const client = reactClient();
    await client.signUp.email({ name: "Lovelace", email: uniqueEmail(), password: PASSWORD });
    await client.signOut();
    await client.$session.refetch();
    expect(renderToString(createElement(SessionBadge, { client }))).toBe("signed out");
  });

  it("is also a standalone hook taking the client", async () => {
    const client = reactClient();
    await client.$session.refetch();
    function Standalone() {
      const session = useSession(client);
      return `${session.isPending}/${session.data === null}`;
    }
    expect(renderToString(createElement(Standalone))).toBe("false/true");
  });
});
