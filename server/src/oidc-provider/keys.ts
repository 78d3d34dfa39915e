import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from "jose";
import type { SigningAlg } from "../config/oidc-provider-options.js";
import { oidcKeys } from "./secrets.js";
import type { OidcRepositories, StoredSigningKey } from "./store/index.js";

/**
 * The provider's signing keys: one RS256 (RSA 2048) and one ES256 (P-256) key sign at a time; keys a rotation
 * retired stay published, for verification only, until their overlap window ends. The private halves are sealed
 * at rest (secrets.ts). Made on first need when the table has none.
 */
export const SIGNING_KEY_ALGS: readonly SigningAlg[] = ["RS256", "ES256"];

export interface KeySet {
  /** Changes whenever the set changes (a rotation, a key leaving the JWKS): the provider is rebuilt then. */
  fingerprint: string;
  /** Private JWKs for oidc-provider's `jwks`: the signing ones first (it signs with the first match). */
  privateJwks: JWK[];
  /** The current signing key of each algorithm. */
  current: Map<SigningAlg, { kid: string; jwk: JWK }>;
}

interface KeyDeps {
  stores: OidcRepositories;
  secret: string;
  now(): Date;
}

/** A new signing key of the algorithm, its private half sealed, signing from `now`. */
export async function newSigningKey(alg: SigningAlg, now: Date, secret: string): Promise<StoredSigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, alg === "RS256" ? { modulusLength: 2048, extractable: true } : { extractable: true });
  const publicJwk = await exportJWK(publicKey);
  const privateJwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  return {
    kid,
    alg,
    publicKey: { ...publicJwk, kid, alg, use: "sig" } as Record<string, unknown>,
    privateKey: oidcKeys(secret).seal(kid, JSON.stringify({ ...privateJwk, kid, alg, use: "sig" })),
    createdAt: now,
    retiredAt: null,
    expiresAt: null,
  };
}

/** What a stored key does at `now`: signs (or may: the newest of its algorithm does), waits to sign, or only verifies. */
function stateOf(key: StoredSigningKey, now: Date): "signing" | "pending" | "verifying" {
  if (key.createdAt > now) return "pending";
  return key.retiredAt === null || key.retiredAt > now ? "signing" : "verifying";
}

/** Adds a signing key for every algorithm that has none signing (the first start, or keys that cannot be used). */
async function ensureSigningKeys(deps: KeyDeps, stored: StoredSigningKey[]): Promise<boolean> {
  let added = false;
  const now = deps.now();
  for (const alg of SIGNING_KEY_ALGS) {
    if (stored.some((k) => k.alg === alg && stateOf(k, now) === "signing")) continue;
    await deps.stores.oidcSigningKeys.insertSigningKey(await newSigningKey(alg, now, deps.secret));
    added = true;
  }
  return added;
}

/**
 * Reads the published keys (making the signing ones when missing) and opens them. A key rotation made waits to
 * sign: it is published first (`pending`), so relying parties that cached the JWKS find it before they meet a
 * token it signed.
 */
export async function loadKeySet(deps: KeyDeps): Promise<KeySet> {
  let stored = await deps.stores.oidcSigningKeys.listSigningKeys(deps.now());
  if (await ensureSigningKeys(deps, stored)) stored = await deps.stores.oidcSigningKeys.listSigningKeys(deps.now());
  const now = deps.now();
  const keys = oidcKeys(deps.secret);
  const current = new Map<SigningAlg, { kid: string; jwk: JWK }>();
  const signing: JWK[] = [];
  const verifying: JWK[] = [];
  const states: string[] = [];
  // Two instances starting on an empty table at once may each make a key: the oldest signing key of each algorithm
  // signs (every instance picks the same one, whichever keys it has seen), the others only verify until rotated
  // away. Normally there is one: a rotation retires the others when its keys start signing.
  const signer = new Map<SigningAlg, StoredSigningKey>();
  for (const key of stored) {
    if (stateOf(key, now) !== "signing") continue;
    const known = signer.get(key.alg);
    if (!known || key.createdAt < known.createdAt || (+key.createdAt === +known.createdAt && key.kid < known.kid)) signer.set(key.alg, key);
  }
  for (const key of stored) {
    const plain = keys.open(key.kid, key.privateKey);
    if (plain === null) continue; // sealed under another secret: it can neither sign nor be trusted
    const jwk = JSON.parse(plain) as JWK;
    const state = stateOf(key, now);
    states.push(`${key.kid}:${state}`);
    if (signer.get(key.alg) === key) {
      current.set(key.alg, { kid: key.kid, jwk });
      signing.push(jwk);
    } else {
      verifying.push(jwk);
    }
  }
  if (!current.has("RS256") || !current.has("ES256")) {
    throw new Error("the OpenID Provider's signing keys cannot be opened with this GATEHOUSE_SECRET; run `gatehouse oidc rotate-keys`");
  }
  // Signing keys first: oidc-provider signs with the first key of an algorithm.
  return { fingerprint: states.join(","), privateJwks: [...signing, ...verifying], current };
}

export interface RotationResult {
  added: { kid: string; alg: SigningAlg }[];
  retired: number;
  signsFrom: Date;
  publishedUntil: Date;
}

/**
 * Rotation: new RS256 and ES256 keys are published now and sign from `activateInSeconds` on; the keys signing until
 * then are retired at that moment and stay in the JWKS `overlapSeconds` longer, so tokens they signed stay
 * verifiable. Keys past their window are deleted. Run it in a transaction.
 */
export async function rotateSigningKeys(deps: KeyDeps, overlapSeconds: number, activateInSeconds: number): Promise<RotationResult> {
  const now = deps.now();
  const signsFrom = new Date(now.getTime() + activateInSeconds * 1000);
  const fresh = await Promise.all(SIGNING_KEY_ALGS.map((alg) => newSigningKey(alg, signsFrom, deps.secret)));
  const publishedUntil = new Date(signsFrom.getTime() + overlapSeconds * 1000);
  for (const key of fresh) await deps.stores.oidcSigningKeys.insertSigningKey(key);
  const retired = await deps.stores.oidcSigningKeys.retireSigningKeys(
    fresh.map((k) => k.kid),
    signsFrom,
    publishedUntil,
  );
  await deps.stores.oidcSigningKeys.deleteExpiredSigningKeys(now);
  return { added: fresh.map((k) => ({ kid: k.kid, alg: k.alg })), retired, signsFrom, publishedUntil };
}
