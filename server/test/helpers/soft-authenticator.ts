import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";
import { isoCBOR } from "@simplewebauthn/server/helpers";

/**
 * A software WebAuthn authenticator for tests: an ES256 (P-256) key pair per credential from node:crypto, the
 * clientDataJSON a browser would write, authenticatorData with the UP, UV and AT flags, "none" attestation in CBOR,
 * and assertions signed over authenticatorData ‖ SHA-256(clientDataJSON). It answers the JSON the server's options
 * describe exactly as `@simplewebauthn/browser`'s startRegistration and startAuthentication would send it.
 *
 * Each option can be bent to play an attacker or a broken device: another origin or RP ID, no user verification,
 * a chosen signature counter, a credential id registered already.
 */

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString("base64url");
const sha256 = (data: Uint8Array | Buffer | string) => createHash("sha256").update(data).digest();

export interface SoftCredential {
  id: string;
  rpId: string;
  /** The user handle the server named (base64url). */
  userHandle: string;
  privateKey: KeyObject;
  /** The COSE public key, as the attestation carried it (what Better Auth stores, in standard base64). */
  publicKey: Uint8Array;
  counter: number;
}

export interface CeremonyOptions {
  /** clientDataJSON.origin: the page the browser ran the ceremony on. */
  origin?: string;
  /** The RP ID hashed into authenticatorData (default: the one the options name). */
  rpId?: string;
  /** User verification performed (the UV flag); default true. */
  userVerified?: boolean;
  /** The challenge signed (default: the one the options give). */
  challenge?: string;
}

export interface AssertionOptions extends CeremonyOptions {
  /** Which credential answers (default: the first allowed one it holds, or any for the RP when none are listed). */
  credentialId?: string;
  /** The signature counter to report (default: the credential's last plus counterStep). */
  counter?: number;
}

export class SoftAuthenticator {
  readonly credentials = new Map<string, SoftCredential>();

  constructor(
    readonly origin: string,
    /** How much the counter moves per assertion; 0 plays an authenticator that keeps none (as synced passkeys do). */
    readonly counterStep = 1,
  ) {}

  /** navigator.credentials.create(): answers PublicKeyCredentialCreationOptionsJSON with RegistrationResponseJSON. */
  createCredential(
    options: { challenge: string; rp: { id?: string }; user: { id: string } },
    opts: CeremonyOptions & { credentialId?: string } = {},
  ) {
    const rpId = opts.rpId ?? options.rp.id!;
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const jwk = publicKey.export({ format: "jwk" });
    const cose = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, new Uint8Array(Buffer.from(jwk.x!, "base64url"))],
        [-3, new Uint8Array(Buffer.from(jwk.y!, "base64url"))],
      ]),
    );
    const idBytes = opts.credentialId ? Buffer.from(opts.credentialId, "base64url") : randomBytes(32);
    const id = b64url(idBytes);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(idBytes.length);
    const authData = Buffer.concat([
      this.header(rpId, FLAG_AT | this.flags(opts), 0),
      Buffer.alloc(16), // AAGUID: none
      idLength,
      idBytes,
      Buffer.from(cose),
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Map<string, string> | Uint8Array>([
        ["fmt", "none"],
        ["attStmt", new Map<string, string>()],
        ["authData", new Uint8Array(authData)],
      ]),
    );
    const clientDataJSON = this.clientData("webauthn.create", opts.challenge ?? options.challenge, opts);
    this.credentials.set(id, { id, rpId, userHandle: options.user.id, privateKey, publicKey: cose, counter: 0 });
    return {
      id,
      rawId: id,
      type: "public-key" as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        attestationObject: b64url(attestationObject),
        transports: ["internal", "hybrid"],
      },
      authenticatorAttachment: "platform",
      clientExtensionResults: {},
    };
  }

  /** navigator.credentials.get(): answers PublicKeyCredentialRequestOptionsJSON with AuthenticationResponseJSON. */
  getAssertion(
    options: { challenge: string; rpId?: string; allowCredentials?: { id: string }[] },
    opts: AssertionOptions = {},
  ) {
    const credential = this.pick(options, opts);
    const rpId = opts.rpId ?? options.rpId ?? credential.rpId;
    const counter = opts.counter ?? credential.counter + this.counterStep;
    credential.counter = Math.max(credential.counter, counter);
    const authData = this.header(rpId, this.flags(opts), counter);
    const clientDataJSON = this.clientData("webauthn.get", opts.challenge ?? options.challenge, opts);
    const signature = sign("sha256", Buffer.concat([authData, sha256(clientDataJSON)]), credential.privateKey);
    return {
      id: credential.id,
      rawId: credential.id,
      type: "public-key" as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: credential.userHandle,
      },
      authenticatorAttachment: "platform",
      clientExtensionResults: {},
    };
  }

  private pick(options: { rpId?: string; allowCredentials?: { id: string }[] }, opts: AssertionOptions): SoftCredential {
    if (opts.credentialId) {
      const chosen = this.credentials.get(opts.credentialId);
      if (!chosen) throw new Error(`no credential ${opts.credentialId}`);
      return chosen;
    }
    const allowed = options.allowCredentials ?? [];
    const found = allowed.length
      ? allowed.map((c) => this.credentials.get(c.id)).find(Boolean)
      : [...this.credentials.values()].find((c) => !options.rpId || c.rpId === options.rpId);
    if (!found) throw new Error("the authenticator holds no credential for these options");
    return found;
  }

  private flags(opts: CeremonyOptions): number {
    return FLAG_UP | (opts.userVerified === false ? 0 : FLAG_UV);
  }

  private header(rpId: string, flags: number, counter: number): Buffer {
    const counterBytes = Buffer.alloc(4);
    counterBytes.writeUInt32BE(counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), counterBytes]);
  }

  private clientData(type: string, challenge: string, opts: CeremonyOptions): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin: opts.origin ?? this.origin, crossOrigin: false }));
  }
}
