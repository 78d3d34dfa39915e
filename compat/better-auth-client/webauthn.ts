import type { SoftAuthenticator } from "../../server/test/helpers/soft-authenticator.js";

/**
 * The browser's WebAuthn API in Node, for `@simplewebauthn/browser` under Better Auth's passkeyClient:
 * `navigator.credentials.create/get` answered by a software authenticator (server/test/helpers/soft-authenticator.ts)
 * with the binary objects a browser returns, `PublicKeyCredential` (conditional mediation available) and a document
 * with an autofill input; the library reads them all from globalThis. No `window`: with one, Better Auth's client
 * would run as in a browser tab (focus and online listeners, session polling) rather than as a script.
 * `settings.userVerified` plays an authenticator that checks no PIN or biometric.
 */

const b64url = (buffer: ArrayBuffer | ArrayBufferView) =>
  Buffer.from(
    ArrayBuffer.isView(buffer) ? buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength) : buffer,
  ).toString("base64url");
const bytes = (base64url: string): ArrayBuffer => {
  const b = Buffer.from(base64url, "base64url");
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
};

export interface WebAuthnShim {
  /** The next ceremonies' user verification (the UV flag); true unless set otherwise. */
  settings: { userVerified: boolean };
  /** The mediation each get() was asked for. */
  mediations: (string | undefined)[];
  /** Puts the globals back as they were. */
  restore(): void;
}

export function installWebAuthn(authenticator: SoftAuthenticator): WebAuthnShim {
  const settings = { userVerified: true };
  const mediations: (string | undefined)[] = [];
  const credentials = {
    async create({ publicKey }: { publicKey: PublicKeyCredentialCreationOptions }) {
      const made = authenticator.createCredential(
        {
          challenge: b64url(publicKey.challenge as ArrayBuffer),
          rp: { id: publicKey.rp.id! },
          user: { id: b64url(publicKey.user.id as ArrayBuffer) },
        },
        { userVerified: settings.userVerified },
      );
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
      const made = authenticator.getAssertion(
        {
          challenge: b64url(publicKey.challenge as ArrayBuffer),
          ...(publicKey.rpId ? { rpId: publicKey.rpId } : {}),
          allowCredentials: (publicKey.allowCredentials ?? []).map((c) => ({ id: b64url(c.id as ArrayBuffer) })),
        },
        { userVerified: settings.userVerified },
      );
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

  const g = globalThis as Record<string, unknown>;
  const names = ["PublicKeyCredential", "navigator", "document"] as const;
  const saved = new Map(names.map((name) => [name, Object.getOwnPropertyDescriptor(g, name)]));
  const define = (name: (typeof names)[number], value: unknown) =>
    Object.defineProperty(g, name, { value, configurable: true, writable: true });
  const PublicKeyCredential = Object.assign(function PublicKeyCredential() {}, {
    isConditionalMediationAvailable: async () => true,
  });
  define("PublicKeyCredential", PublicKeyCredential);
  define("navigator", { credentials });
  define("document", { querySelectorAll: () => [{ autocomplete: "username webauthn" }] });

  return {
    settings,
    mediations,
    restore() {
      for (const [name, descriptor] of saved) {
        if (descriptor) Object.defineProperty(g, name, descriptor);
        else delete g[name];
      }
    },
  };
}
