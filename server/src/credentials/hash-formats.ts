/**
 * The password-hash formats a credential account may hold. Gatehouse writes only its own scrypt (`saltHex:keyHex`,
 * password.ts); the others arrive with `gatehouse import` and are replaced by Gatehouse's scrypt the first time their
 * owner's password is checked (credential-account.ts upgradePasswordHash). Each is recognised by its shape alone:
 *
 * - bcrypt: `$2a$`, `$2b$` or `$2y$`, a two-digit cost, 53 characters of salt and hash (`$2y$` is PHP's name for `$2b$`).
 * - Argon2: a PHC string, `$argon2id$v=19$m=65536,t=3,p=4$<salt>$<hash>` (or `$argon2i$`; m, t, p in any order), salt
 *   and hash in unpadded base64.
 * - PBKDF2-SHA256 as Django stores it: `pbkdf2_sha256$<iterations>$<salt>$<base64 of the 32-byte key>`.
 * - Firebase's modified scrypt, stored self-describing as
 *   `$firebase-scrypt$m=<mem cost>,r=<rounds>$<salt>$<salt separator>$<signer key>$<password hash>` (standard base64):
 *   everything verification needs, since the project's hash parameters are not options of the service.
 * - Gatehouse's scrypt: 32 hex characters of salt, a colon, 128 hex characters of key.
 */
export type HashFormat = "scrypt" | "bcrypt" | "argon2" | "pbkdf2-sha256" | "firebase-scrypt";

/** Firebase's scrypt parameters of a project (Authentication, Users, "Password hash parameters"). */
export interface FirebaseHashConfig {
  /** base64_signer_key */
  signerKey: string;
  /** base64_salt_separator */
  saltSeparator: string;
  rounds: number;
  memCost: number;
}

/**
 * Memory a foreign hash may ask for at each verification: 256 MiB. The hash's own parameters set it, and an import
 * file is trusted only so far; Argon2's `m` is in KiB, scrypt's memory is 128 × 2^memCost × rounds bytes.
 */
export const MAX_HASH_MEMORY = 256 * 1024 * 1024;
const MAX_ITERATIONS = 10_000_000;

const SCRYPT_SHAPE = /^[0-9a-f]{32}:[0-9a-f]{128}$/;
const BCRYPT_SHAPE = /^\$2[aby]\$(\d\d)\$[./A-Za-z0-9]{53}$/;
/** The parameters m, t and p in any order (the reference writes m,t,p; the argon2 package m,p,t). */
const ARGON2_SHAPE = /^\$argon2(?:id|i)\$(?:v=(?:16|19)\$)?([mtp]=\d{1,10},[mtp]=\d{1,10},[mtp]=\d{1,10})\$[A-Za-z0-9+/]{11,}\$[A-Za-z0-9+/]{16,}$/;
const PBKDF2_SHAPE = /^pbkdf2_sha256\$(\d{1,10})\$([^$]{1,128})\$([A-Za-z0-9+/]{43}=)$/;
const BASE64 = "(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?";
const BASE64_SHAPE = new RegExp(`^${BASE64}$`);
const FIREBASE_SHAPE = new RegExp(
  `^\\$firebase-scrypt\\$m=(\\d{1,2}),r=(\\d{1,2})\\$(${BASE64})\\$(${BASE64})\\$(${BASE64})\\$(${BASE64})$`,
);

/**
 * The format of a stored hash, from its first characters: what the hash workers use to pick the algorithm and what
 * sign-in uses to decide on a rehash. A hash that is none of the foreign shapes is Gatehouse's scrypt (hashes of
 * this API written elsewhere may have other salts; password.ts checks the key's shape).
 */
export function storedHashFormat(hash: string): HashFormat {
  if (hash.startsWith("$2")) return "bcrypt";
  if (hash.startsWith("$argon2")) return "argon2";
  if (hash.startsWith("pbkdf2_sha256$")) return "pbkdf2-sha256";
  if (hash.startsWith("$firebase-scrypt$")) return "firebase-scrypt";
  return "scrypt";
}

/** Whether a verified hash should be replaced by Gatehouse's scrypt (it is one of the imported formats). */
export const needsRehash = (hash: string): boolean => storedHashFormat(hash) !== "scrypt";

export type ImportedHash = { hash: string; format: HashFormat } | { error: string };

/**
 * Checks a hash as an import file gives it and answers what to store: the string itself for every format but
 * Firebase's, whose base64 `password` (with `passwordSalt`) becomes the self-describing string above, built with the
 * project's parameters. An unknown shape or out-of-bounds parameters answer a reason for the rejected line.
 */
export function importedPasswordHash(
  password: string,
  passwordSalt: string | undefined,
  firebase: FirebaseHashConfig | undefined,
): ImportedHash {
  if (passwordSalt !== undefined) return firebaseHash(password, passwordSalt, firebase);
  if (SCRYPT_SHAPE.test(password)) return { hash: password, format: "scrypt" };
  const bcrypt = BCRYPT_SHAPE.exec(password);
  if (bcrypt) {
    const cost = Number(bcrypt[1]);
    if (cost < 4 || cost > 31) return { error: `bcrypt cost ${cost} is outside 4-31` };
    return { hash: password, format: "bcrypt" };
  }
  const argon2 = ARGON2_SHAPE.exec(password);
  const params = argon2 ? Object.fromEntries(argon2[1]!.split(",").map((pair) => pair.split("="))) : {};
  if (argon2 && Object.keys(params).length === 3) {
    const [m, t, p] = [Number(params.m), Number(params.t), Number(params.p)];
    if (m * 1024 > MAX_HASH_MEMORY) return { error: `argon2 memory m=${m} KiB is over the limit of ${MAX_HASH_MEMORY / 1024} KiB` };
    if (t < 1 || t > 1000 || p < 1 || p > 64 || m < 8 * p) return { error: "argon2 parameters out of range" };
    return { hash: password, format: "argon2" };
  }
  const pbkdf2 = PBKDF2_SHAPE.exec(password);
  if (pbkdf2) {
    const iterations = Number(pbkdf2[1]);
    if (iterations < 1 || iterations > MAX_ITERATIONS) return { error: `pbkdf2_sha256 iterations ${iterations} out of range` };
    return { hash: password, format: "pbkdf2-sha256" };
  }
  const stored = FIREBASE_SHAPE.exec(password);
  if (stored) {
    const error = firebaseParamsError(Number(stored[1]), Number(stored[2]));
    if (error) return { error };
    if (Buffer.from(stored[6]!, "base64").length !== Buffer.from(stored[5]!, "base64").length) {
      return { error: "password: the Firebase password hash and the signer key differ in length" };
    }
    return { hash: password, format: "firebase-scrypt" };
  }
  const near = MALFORMED.find(([prefix]) => password.startsWith(prefix));
  if (near) return { error: `password: malformed ${near[1]} hash` };
  return {
    error:
      "password: unknown hash format (bcrypt, argon2id or argon2i, pbkdf2_sha256, Firebase scrypt with passwordSalt, or Gatehouse's scrypt)",
  };
}

/** Prefixes that name a format whose hash then does not have that format's shape. */
const MALFORMED: [string, string][] = [
  ["$2", "bcrypt"],
  ["$argon2", "argon2 (argon2id or argon2i, PHC string)"],
  ["pbkdf2_", "pbkdf2_sha256"],
  ["$firebase-scrypt$", "Firebase scrypt"],
];

function firebaseParamsError(memCost: number, rounds: number): string | null {
  if (memCost < 1 || memCost > 20 || rounds < 1 || rounds > 32) return `Firebase mem_cost ${memCost} / rounds ${rounds} out of range`;
  if (128 * 2 ** memCost * rounds > MAX_HASH_MEMORY) return `Firebase mem_cost ${memCost} with rounds ${rounds} needs more than ${MAX_HASH_MEMORY / 2 ** 20} MiB`;
  return null;
}

function firebaseHash(password: string, salt: string, firebase: FirebaseHashConfig | undefined): ImportedHash {
  if (!firebase) {
    return { error: "a Firebase hash (password with passwordSalt) needs the project's parameters: --firebase-signer-key, --firebase-salt-separator, --firebase-rounds, --firebase-mem-cost" };
  }
  if (!BASE64_SHAPE.test(password) || password === "") return { error: "password: a Firebase password hash must be base64" };
  if (!BASE64_SHAPE.test(salt) || salt === "") return { error: "passwordSalt: must be base64" };
  if (Buffer.from(password, "base64").length !== Buffer.from(firebase.signerKey, "base64").length) {
    return { error: "password: the Firebase password hash differs in length from the signer key (another project's hash?)" };
  }
  const { memCost, rounds, saltSeparator, signerKey } = firebase;
  return { hash: `$firebase-scrypt$m=${memCost},r=${rounds}$${salt}$${saltSeparator}$${signerKey}$${password}`, format: "firebase-scrypt" };
}

/** Checks Firebase parameters given to the import command; answers what is wrong, or null. */
export function firebaseConfigError(config: FirebaseHashConfig): string | null {
  if (!BASE64_SHAPE.test(config.signerKey) || config.signerKey === "") return "the Firebase signer key must be base64";
  if (!BASE64_SHAPE.test(config.saltSeparator)) return "the Firebase salt separator must be base64";
  if (!Number.isInteger(config.rounds) || !Number.isInteger(config.memCost)) return "Firebase rounds and mem cost must be whole numbers";
  return firebaseParamsError(config.memCost, config.rounds);
}
