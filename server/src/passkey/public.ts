import { z } from "zod";
import type { Passkey } from "./store/models.js";

/**
 * A passkey as the routes answer it: Better Auth's row (API-NOTES-PLUGINS.md 3.1/3.4), without our own columns
 * (the user handle and the session that registered it stay on the server).
 */
export function publicPasskey(passkey: Passkey) {
  return {
    id: passkey.id,
    name: passkey.name,
    publicKey: passkey.publicKey,
    userId: passkey.userId,
    credentialID: passkey.credentialID,
    counter: passkey.counter,
    deviceType: passkey.deviceType,
    backedUp: passkey.backedUp,
    transports: passkey.transports,
    createdAt: passkey.createdAt,
    aaguid: passkey.aaguid,
  };
}

export const passkeySchema = z
  .object({
    id: z.string(),
    name: z.string().nullable(),
    publicKey: z.string().describe("Standard base64 of the COSE public key"),
    userId: z.string(),
    credentialID: z.string().describe("base64url"),
    counter: z.number().int(),
    deviceType: z.string().describe('"singleDevice" or "multiDevice"'),
    backedUp: z.boolean(),
    transports: z.string().nullable().describe('Comma-joined ("internal,hybrid"), "" when none'),
    createdAt: z.iso.datetime(),
    aaguid: z.string().nullable(),
  })
  .meta({ id: "Passkey", description: "A registered passkey (WebAuthn credential) of the user" });

/** base64url, as WebAuthn's JSON serialisation writes binary fields (padding tolerated). */
const base64url = (max: number) => z.string().max(max).regex(/^[A-Za-z0-9_-]*={0,2}$/, "must be base64url");

const transportsSchema = z.array(z.string().max(32)).max(16);

/**
 * The browser's RegistrationResponseJSON (`startRegistration`'s answer; Better Auth's client leaves out
 * clientExtensionResults). Fields the library does not read are let through.
 */
export const registrationResponseSchema = z.looseObject({
  id: base64url(1366).min(1),
  rawId: base64url(1366).min(1),
  type: z.literal("public-key"),
  response: z.looseObject({
    clientDataJSON: base64url(8192).min(1),
    attestationObject: base64url(32_768).min(1),
    transports: transportsSchema.optional(),
  }),
  authenticatorAttachment: z.string().max(32).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
});

/** The browser's AuthenticationResponseJSON (`startAuthentication`'s answer). */
export const authenticationResponseSchema = z.looseObject({
  id: base64url(1366).min(1),
  rawId: base64url(1366).min(1),
  type: z.literal("public-key"),
  response: z.looseObject({
    clientDataJSON: base64url(8192).min(1),
    authenticatorData: base64url(8192).min(1),
    signature: base64url(2048).min(1),
    userHandle: base64url(512).optional(),
  }),
  authenticatorAttachment: z.string().max(32).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
});

const credentialDescriptorSchema = z.object({
  id: z.string(),
  type: z.literal("public-key"),
  transports: z.array(z.string()).optional(),
});

/** PublicKeyCredentialCreationOptionsJSON, as `startRegistration({ optionsJSON })` takes it. */
export const registrationOptionsSchema = z
  .object({
    challenge: z.string(),
    rp: z.object({ name: z.string(), id: z.string().optional() }),
    user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
    pubKeyCredParams: z.array(z.object({ alg: z.number(), type: z.literal("public-key") })),
    timeout: z.number().optional(),
    attestation: z.string().optional(),
    excludeCredentials: z.array(credentialDescriptorSchema).optional(),
    authenticatorSelection: z
      .object({
        authenticatorAttachment: z.string().optional(),
        residentKey: z.string().optional(),
        requireResidentKey: z.boolean().optional(),
        userVerification: z.string().optional(),
      })
      .optional(),
    extensions: z.record(z.string(), z.unknown()).optional(),
    hints: z.array(z.string()).optional(),
  })
  .meta({ id: "PasskeyRegistrationOptions", description: "WebAuthn creation options (PublicKeyCredentialCreationOptionsJSON)" });

/** PublicKeyCredentialRequestOptionsJSON, as `startAuthentication({ optionsJSON })` takes it. */
export const authenticationOptionsSchema = z
  .object({
    challenge: z.string(),
    rpId: z.string().optional(),
    timeout: z.number().optional(),
    allowCredentials: z.array(credentialDescriptorSchema).optional(),
    userVerification: z.string().optional(),
    extensions: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: "PasskeyAuthenticationOptions", description: "WebAuthn request options (PublicKeyCredentialRequestOptionsJSON)" });
