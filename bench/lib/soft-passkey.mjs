import { createHash, generateKeyPairSync, randomBytes, sign } from "node:crypto";

/**
 * The benchmark's software WebAuthn authenticator: an ES256 (P-256) key pair per passkey from node:crypto, the
 * clientDataJSON a browser writes, authenticatorData with the UP and UV flags (AT at registration), "none"
 * attestation, and assertions signed over authenticatorData ‖ SHA-256(clientDataJSON). It answers the JSON that
 * `@simplewebauthn/browser`'s startRegistration and startAuthentication send.
 *
 * Its signature counter is always 0, WebAuthn's "this authenticator keeps no counter" (as synced passkeys do): the
 * server then has no counter to compare and move, so any number of assertions of one passkey may be in flight at
 * once, as a load of many connections needs.
 */

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

const b64url = (bytes) => Buffer.from(bytes).toString("base64url");
const sha256 = (data) => createHash("sha256").update(data).digest();

// ---- the little CBOR (RFC 8949) a "none" attestation needs: integers, byte and text strings, maps --------------

function cborHead(major, length) {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
  if (length < 0x10000) {
    const b = Buffer.alloc(3);
    b[0] = (major << 5) | 25;
    b.writeUInt16BE(length, 1);
    return b;
  }
  const b = Buffer.alloc(5);
  b[0] = (major << 5) | 26;
  b.writeUInt32BE(length, 1);
  return b;
}

export function cbor(value) {
  if (typeof value === "number") {
    if (!Number.isInteger(value)) throw new Error("cbor: integers only");
    return value >= 0 ? cborHead(0, value) : cborHead(1, -1 - value);
  }
  if (typeof value === "string") {
    const bytes = Buffer.from(value, "utf8");
    return Buffer.concat([cborHead(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([cborHead(2, value.length), Buffer.from(value)]);
  if (value instanceof Map) {
    const parts = [cborHead(5, value.size)];
    for (const [k, v] of value) parts.push(cbor(k), cbor(v));
    return Buffer.concat(parts);
  }
  throw new Error(`cbor: cannot encode ${typeof value}`);
}

// ---- the authenticator ------------------------------------------------------------------------------------

export class SoftPasskeys {
  /** @param {string} origin the page the ceremonies run on (clientDataJSON.origin) */
  constructor(origin) {
    this.origin = origin;
    /** @type {{ id: string, rpId: string, userHandle: string, privateKey: import("node:crypto").KeyObject }[]} */
    this.credentials = [];
  }

  /** navigator.credentials.create(): PublicKeyCredentialCreationOptionsJSON in, RegistrationResponseJSON out. */
  create(options) {
    const rpId = options.rp.id;
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const jwk = publicKey.export({ format: "jwk" });
    const cose = cbor(
      new Map([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x, "base64url")],
        [-3, Buffer.from(jwk.y, "base64url")],
      ]),
    );
    const idBytes = randomBytes(32);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(idBytes.length);
    const authData = Buffer.concat([header(rpId, FLAG_UP | FLAG_UV | FLAG_AT), Buffer.alloc(16), idLength, idBytes, cose]);
    const attestationObject = cbor(
      new Map([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", authData],
      ]),
    );
    const id = b64url(idBytes);
    this.credentials.push({ id, rpId, userHandle: options.user.id, privateKey });
    return {
      id,
      rawId: id,
      type: "public-key",
      response: {
        clientDataJSON: b64url(this.clientData("webauthn.create", options.challenge)),
        attestationObject: b64url(attestationObject),
        transports: ["internal", "hybrid"],
      },
      authenticatorAttachment: "platform",
      clientExtensionResults: {},
    };
  }

  /**
   * navigator.credentials.get() with a discoverable passkey (no allowCredentials): the assertion of credential
   * number `index` (modulo how many it holds), with user verification, counter 0.
   */
  assert(options, index = 0) {
    const credential = this.credentials[index % this.credentials.length];
    const authData = header(options.rpId ?? credential.rpId, FLAG_UP | FLAG_UV);
    const clientDataJSON = this.clientData("webauthn.get", options.challenge);
    const signature = sign("sha256", Buffer.concat([authData, sha256(clientDataJSON)]), credential.privateKey);
    return {
      id: credential.id,
      rawId: credential.id,
      type: "public-key",
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

  clientData(type, challenge) {
    return Buffer.from(JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false }));
  }
}

/** authenticatorData without attested credential data: SHA-256(RP ID), the flags, the counter (always 0). */
function header(rpId, flags) {
  return Buffer.concat([sha256(rpId), Buffer.from([flags]), Buffer.alloc(4)]);
}
