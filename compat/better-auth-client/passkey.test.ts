import { passkeyClient } from "@better-auth/passkey/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS } from "../../server/test/helpers/databases.js";
import { PASSWORD } from "../../server/test/helpers/http-client.js";
import { startTestServer, type TestServer } from "../../server/test/helpers/server.js";
import { SoftAuthenticator } from "../../server/test/helpers/soft-authenticator.js";
import { betterAuthClient, browser } from "./harness.js";
import { installWebAuthn, type WebAuthnShim } from "./webauthn.js";

/**
 * Issue #15 item 5: Better Auth 1.7's `passkeyClient()` (from `@better-auth/passkey`, with `@simplewebauthn/browser`
 * underneath), unchanged, against Gatehouse's passkey routes (server/src/passkey). The browser's WebAuthn API is the
 * test's software authenticator (server/test/helpers/soft-authenticator.ts) behind `navigator.credentials`, so the
 * client's own conversions between WebAuthn's binary objects and their JSON run as in a browser.
 */

let n = 0;
const address = (p: string) => `${p}-${Date.now().toString(36)}-${++n}@example.com`;

describe.each(DIALECTS)("Better Auth 1.7's passkeyClient against Gatehouse (%s)", (dialect) => {
  let server: TestServer;
  let authenticator: SoftAuthenticator;
  let webAuthn: WebAuthnShim;
  beforeAll(async () => {
    server = await startTestServer(dialect);
    authenticator = new SoftAuthenticator(new URL(server.url).origin);
    webAuthn = installWebAuthn(authenticator);
  });
  afterAll(async () => {
    webAuthn?.restore();
    await server?.close();
  });

  const clientFor = () => betterAuthClient(server.base, browser(server.url), [passkeyClient()]);

  it("adds, lists, renames and deletes passkeys, and signs in with one (button and autofill)", async () => {
    const owner = clientFor();
    const email = address("pk");
    expect((await owner.signUp.email({ email, password: PASSWORD, name: "Passkey User" })).error).toBeNull();

    const added = await owner.passkey.addPasskey({ name: "Laptop" });
    expect(added.error).toBeNull();
    expect(added.data).toMatchObject({ name: "Laptop", counter: 0, deviceType: "singleDevice", backedUp: false });
    const second = await owner.passkey.addPasskey({ name: "Phone" });
    expect(second.error).toBeNull();

    const listed = await owner.passkey.listUserPasskeys();
    expect(listed.data?.map((p: { name: string | null }) => p.name)).toEqual(["Laptop", "Phone"]);

    const renamed = await owner.passkey.updatePasskey({ id: second.data!.id, name: "Work phone" });
    expect(renamed.data?.passkey.name).toBe("Work phone");

    // A passkey registered in this session goes without the password; the step-up rule holds for the others.
    expect((await owner.passkey.deletePasskey({ id: second.data!.id })).data).toEqual({ status: true });

    // Sign in from a new browser: the sign-in button, then the browser's autofill (conditional mediation).
    const visitor = clientFor();
    const signedIn = await visitor.signIn.passkey();
    expect(signedIn.error).toBeNull();
    expect(signedIn.data?.user.email).toBe(email);
    expect((await visitor.getSession()).data?.user.email).toBe(email);

    const autofill = clientFor();
    const filled = await autofill.signIn.passkey({ autoFill: true });
    expect(filled.error).toBeNull();
    expect(filled.data?.user.email).toBe(email);
    expect(webAuthn.mediations.at(-1)).toBe("conditional");

    // The passkey session removes the remaining passkey without the password.
    expect((await visitor.passkey.deletePasskey({ id: added.data!.id })).data).toEqual({ status: true });
    expect((await owner.passkey.listUserPasskeys()).data).toEqual([]);
    const gone = await clientFor().signIn.passkey();
    expect(gone.error?.status).toBe(401);
  });

  it("sees the service's refusals through the client's error shape", async () => {
    const stranger = clientFor();
    const noSession = await stranger.passkey.addPasskey();
    expect(noSession.error?.status).toBe(401);

    const owner = clientFor();
    await owner.signUp.email({ email: address("pk2"), password: PASSWORD, name: "Other" });
    const notMine = await owner.passkey.deletePasskey({ id: "no-such-passkey" });
    expect(notMine.error).toMatchObject({ status: 404, code: "PASSKEY_NOT_FOUND" });
  });
});
