import { passkeyClient } from "@better-auth/passkey/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS } from "../../server/test/helpers/databases.js";
import { PASSWORD } from "../../server/test/helpers/http-client.js";
import { startTestServer, type TestServer } from "../../server/test/helpers/server.js";
import { SoftAuthenticator } from "../../server/test/helpers/soft-authenticator.js";
import { betterAuthClient, browser } from "./harness.js";

/**
 * Issue #15 item 5: Better Auth 1.7's `passkeyClient()` (from `@better-auth/passkey`, with `@simplewebauthn/browser`
 * underneath), unchanged, against Gatehouse's passkey routes (server/src/passkey). The browser's WebAuthn API is the
 * test's software authenticator (server/test/helpers/soft-authenticator.ts) behind `navigator.credentials`, so the
 * client's own conversions between WebAuthn's binary objects and their JSON run as in a browser.
 */

const b64url = (buffer: ArrayBuffer | ArrayBufferView) =>
  Buffer.from(ArrayBuffer.isView(buffer) ? buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength) : buffer).toString("base64url");
const bytes = (base64url: string): ArrayBuffer => {
  const b = Buffer.from(base64url, "base64url");
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
};

/** navigator.credentials over a SoftAuthenticator, recording the mediation each get() was asked for. */
function webAuthnOf(authenticator: SoftAuthenticator) {
  const mediations: (string | undefined)[] = [];
  const credentials = {
    async create({ publicKey }: { publicKey: PublicKeyCredentialCreationOptions }) {
      const made = authenticator.createCredential({
        challenge: b64url(publicKey.challenge as ArrayBuffer),
        rp: { id: publicKey.rp.id! },
        user: { id: b64url(publicKey.user.id as ArrayBuffer) },
      });
      return {
        id: made.id,
        rawId: bytes(made.rawId),
        type: made.type,
        authenticatorAttachment: made.authenticatorAttachment,
        response: {
          clientDataJSON: bytes(made.response.clientDataJSON),
          attestationObject: bytes(made.response.attestationObject),
          getTransports: () => made.response.transports,
        },
        getClientExtensionResults: () => ({}),
      };
    },
    async get({ publicKey, mediation }: { publicKey: PublicKeyCredentialRequestOptions; mediation?: string }) {
      mediations.push(mediation);
      const made = authenticator.getAssertion({
        challenge: b64url(publicKey.challenge as ArrayBuffer),
        ...(publicKey.rpId ? { rpId: publicKey.rpId } : {}),
        allowCredentials: (publicKey.allowCredentials ?? []).map((c) => ({ id: b64url(c.id as ArrayBuffer) })),
      });
      return {
        id: made.id,
        rawId: bytes(made.rawId),
        type: made.type,
        authenticatorAttachment: made.authenticatorAttachment,
        response: {
          clientDataJSON: bytes(made.response.clientDataJSON),
          authenticatorData: bytes(made.response.authenticatorData),
          signature: bytes(made.response.signature),
          userHandle: bytes(made.response.userHandle),
        },
        getClientExtensionResults: () => ({}),
      };
    },
  };
  return { credentials, mediations };
}

/** What the browser library looks for: PublicKeyCredential (with conditional mediation), navigator, an autofill input. */
function installBrowserGlobals(credentials: object) {
  const g = globalThis as Record<string, unknown>;
  const saved = { PublicKeyCredential: g.PublicKeyCredential, navigator: Object.getOwnPropertyDescriptor(g, "navigator"), document: g.document };
  g.PublicKeyCredential = Object.assign(function PublicKeyCredential() {}, {
    isConditionalMediationAvailable: async () => true,
  });
  Object.defineProperty(g, "navigator", { value: { credentials }, configurable: true, writable: true });
  g.document = { querySelectorAll: () => [{ autocomplete: "username webauthn" }] };
  return () => {
    g.PublicKeyCredential = saved.PublicKeyCredential;
    if (saved.navigator) Object.defineProperty(g, "navigator", saved.navigator);
    else delete g.navigator;
    g.document = saved.document;
  };
}

let n = 0;
const address = (p: string) => `${p}-${Date.now().toString(36)}-${++n}@example.com`;

describe.each(DIALECTS)("Better Auth 1.7's passkeyClient against Gatehouse (%s)", (dialect) => {
  let server: TestServer;
  let authenticator: SoftAuthenticator;
  let webAuthn: ReturnType<typeof webAuthnOf>;
  let restore: () => void;
  beforeAll(async () => {
    server = await startTestServer(dialect);
    authenticator = new SoftAuthenticator(new URL(server.url).origin);
    webAuthn = webAuthnOf(authenticator);
    restore = installBrowserGlobals(webAuthn.credentials);
  });
  afterAll(async () => {
    restore?.();
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
