import argon2 from "argon2";
import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import { afterAll, describe, expect, it } from "vitest";
import { importedPasswordHash, needsRehash, storedHashFormat, type FirebaseHashConfig } from "../src/credentials/hash-formats.js";
import { createPasswordHasher, scryptReference } from "../src/credentials/password.js";
import { djangoHash, FIREBASE_SAMPLE } from "./helpers/password-vectors.js";

const bcrypt = createRequire(import.meta.url)("bcrypt") as { hashSync(password: string, rounds: number): string };

function storedFirebase(): string {
  const imported = importedPasswordHash(FIREBASE_SAMPLE.passwordHash, FIREBASE_SAMPLE.salt, FIREBASE_SAMPLE.config);
  if ("error" in imported) throw new Error(imported.error);
  return imported.hash;
}

describe("#12.2: imported password hashes, each format with known vectors", () => {
  const hasher = createPasswordHasher({ concurrency: 2, nice: 0 });
  afterAll(() => hasher.close());

  it("#12.2: bcrypt ($2a$, $2b$, $2y$): the OpenBSD/OpenWall test vectors verify, a wrong password does not", async () => {
    // crypt_blowfish's published vectors (also in OpenBSD's and PHP's test suites).
    const vectors: [string, string][] = [
      ["U*U", "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"],
      ["U*U*", "$2a$05$CCCCCCCCCCCCCCCCCCCCC.VGOzA784oUp/Z0DY336zx7pLYAy0lwK"],
      ["U*U*U", "$2a$05$XXXXXXXXXXXXXXXXXXXXXOAcXxm9kjPGEMsLznoKqmqw7tc8WCx4a"],
      [
        "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789chars after 72 are ignored",
        "$2a$05$abcdefghijklmnopqrstuu5s2v8.iXieOjg/.AySBTTZIIVFJeBui",
      ],
    ];
    for (const [password, hash] of vectors) {
      expect(importedPasswordHash(hash, undefined, undefined)).toEqual({ hash, format: "bcrypt" });
      expect(await hasher.verify(hash, password)).toBe(true);
      expect(await hasher.verify(hash, "!" + password)).toBe(false);
    }
    // The same hash under each of the three prefixes (PHP writes $2y$, which is $2b$).
    const b = bcrypt.hashSync("pässword 1", 4);
    expect(b.startsWith("$2b$")).toBe(true);
    for (const prefix of ["$2a$", "$2b$", "$2y$"]) {
      const hash = prefix + b.slice(4);
      expect(await hasher.verify(hash, "pässword 1")).toBe(true);
      expect(await hasher.verify(hash, "password 1")).toBe(false);
    }
  });

  it("#12.2: Argon2: RFC 9106's test vectors for Argon2i and Argon2id (with secret and associated data) through the package that verifies them", async () => {
    // RFC 9106 section 5: version 0x13, 32 KiB, 3 passes, 4 lanes, tag 32 bytes; password 32 × 0x01, salt 16 × 0x02,
    // secret 8 × 0x03, associated data 12 × 0x04.
    const common = {
      memoryCost: 32,
      timeCost: 3,
      parallelism: 4,
      hashLength: 32,
      salt: Buffer.alloc(16, 2),
      secret: Buffer.alloc(8, 3),
      associatedData: Buffer.alloc(12, 4),
      raw: true as const,
    };
    const password = Buffer.alloc(32, 1);
    const argon2i = await argon2.hash(password, { ...common, type: argon2.argon2i });
    expect(argon2i.toString("hex")).toBe("c814d9d1dc7f37aa13f0d77f2494bda1c8de6b016dd388d29952a4c4672b6ce8");
    const argon2id = await argon2.hash(password, { ...common, type: argon2.argon2id });
    expect(argon2id.toString("hex")).toBe("0d640df58d78766c08c037a34a8b53c9d01ef0452d75b65eb52520e96b01e659");
  });

  it("#12.2: Argon2 PHC strings: the reference implementation's argon2i example and a fresh argon2id verify through the hash workers", async () => {
    // From the reference implementation's README: echo -n "password" | ./argon2 somesalt -t 2 -m 16 -p 4 -l 24
    const reference = "$argon2i$v=19$m=65536,t=2,p=4$c29tZXNhbHQ$RdescudvJCsgt3ub+b+dWRWJTmaaJObG";
    expect(importedPasswordHash(reference, undefined, undefined)).toEqual({ hash: reference, format: "argon2" });
    expect(await hasher.verify(reference, "password")).toBe(true);
    expect(await hasher.verify(reference, "Password")).toBe(false);
    const fresh = await argon2.hash("ünïcode pass", { type: argon2.argon2id, memoryCost: 4096, timeCost: 2, parallelism: 1 });
    expect(fresh).toMatch(/^\$argon2id\$v=19\$m=4096,p=1,t=2\$/); // the package's order of the parameters
    expect(importedPasswordHash(fresh, undefined, undefined)).toEqual({ hash: fresh, format: "argon2" });
    expect(await hasher.verify(fresh, "ünïcode pass")).toBe(true);
    expect(await hasher.verify(fresh, "unicode pass")).toBe(false);
  });

  it("#12.2: PBKDF2-SHA256 in Django's form verifies", async () => {
    const hash = djangoHash("lètmein", "seasalt", 10_000);
    expect(importedPasswordHash(hash, undefined, undefined)).toEqual({ hash, format: "pbkdf2-sha256" });
    expect(await hasher.verify(hash, "lètmein")).toBe(true);
    expect(await hasher.verify(hash, "letmein")).toBe(false);
  });

  it("#12.2: Firebase's modified scrypt: the documentation's sample user verifies with the sample project's parameters", async () => {
    const stored = storedFirebase();
    expect(stored).toBe(
      `$firebase-scrypt$m=14,r=8$${FIREBASE_SAMPLE.salt}$Bw==$${FIREBASE_SAMPLE.config.signerKey}$${FIREBASE_SAMPLE.passwordHash}`,
    );
    expect(storedHashFormat(stored)).toBe("firebase-scrypt");
    expect(await hasher.verify(stored, FIREBASE_SAMPLE.password)).toBe(true);
    expect(await hasher.verify(stored, "user2password")).toBe(false);
    // Another project's signer key (same length) does not verify the sample.
    const other = stored.replace(FIREBASE_SAMPLE.config.signerKey, randomBytes(64).toString("base64"));
    expect(await hasher.verify(other, FIREBASE_SAMPLE.password)).toBe(false);
    // The self-describing string imports as it is (no parameters needed).
    expect(importedPasswordHash(stored, undefined, undefined)).toEqual({ hash: stored, format: "firebase-scrypt" });
  });

  it("#12.2: Gatehouse's own scrypt imports as it is and needs no rehash; every foreign format does", async () => {
    const ours = await scryptReference("mine", "0123456789abcdef0123456789abcdef");
    expect(importedPasswordHash(ours, undefined, undefined)).toEqual({ hash: ours, format: "scrypt" });
    expect(needsRehash(ours)).toBe(false);
    expect(await hasher.verify(ours, "mine")).toBe(true);
    for (const foreign of [bcrypt.hashSync("x", 4), djangoHash("x", "s", 1), storedFirebase()]) {
      expect(needsRehash(foreign)).toBe(true);
    }
  });

  it("#12.2: an unknown or malformed shape is refused with a reason", () => {
    const reason = (password: string, salt?: string, firebase?: FirebaseHashConfig) => {
      const result = importedPasswordHash(password, salt, firebase);
      return "error" in result ? result.error : null;
    };
    expect(reason("5f4dcc3b5aa765d61d8327deb882cf99")).toMatch(/unknown hash format/);
    expect(reason("$2a$05$tooshort")).toMatch(/malformed bcrypt/);
    expect(reason("$2a$03$" + "C".repeat(53))).toMatch(/cost 3/);
    expect(reason("$argon2d$v=19$m=65536,t=2,p=4$c29tZXNhbHQ$RdescudvJCsgt3ub+b+dWRWJTmaaJObG")).toMatch(/malformed argon2/);
    expect(reason("$argon2id$v=19$m=4194304,t=2,p=4$c29tZXNhbHQ$RdescudvJCsgt3ub+b+dWRWJTmaaJObG")).toMatch(/over the limit/);
    expect(reason("pbkdf2_sha1$10000$salt$abc=")).toMatch(/malformed pbkdf2_sha256/);
    expect(reason(FIREBASE_SAMPLE.passwordHash, FIREBASE_SAMPLE.salt)).toMatch(/--firebase-signer-key/);
    expect(reason("bm90IGZpcmViYXNl", FIREBASE_SAMPLE.salt, FIREBASE_SAMPLE.config)).toMatch(/differs in length/);
    expect(reason(FIREBASE_SAMPLE.passwordHash, "not base64!", FIREBASE_SAMPLE.config)).toMatch(/passwordSalt/);
  });

  it("#12.2: a wrong password is refused in about the time a right one takes, in every format", async () => {
    const formats = {
      bcrypt: bcrypt.hashSync("right password", 8),
      argon2id: await argon2.hash("right password", { type: argon2.argon2id, memoryCost: 8192, timeCost: 3, parallelism: 1 }),
      pbkdf2: djangoHash("right password", "salt1234", 60_000),
      firebase: storedFirebase(),
    };
    for (const [name, hash] of Object.entries(formats)) {
      const right = name === "firebase" ? FIREBASE_SAMPLE.password : "right password";
      const timings = { right: [] as number[], wrong: [] as number[] };
      const ratioNow = () => Math.min(...timings.wrong) / Math.min(...timings.right);
      // The whole hash is computed either way and compared in constant time; only noise tells them apart. The
      // fastest of several runs is each one's cost with the least noise of a shared machine; on a busy one, more
      // runs are taken (up to 40 pairs) before a ratio outside the bounds counts. A wrong password that skipped
      // the hash would stay near 0 however many runs there are.
      for (let i = 0; i < 40 && (i < 7 || !(ratioNow() > 0.6 && ratioNow() < 1.6)); i++) {
        for (const [kind, password] of [["right", right], ["wrong", "wrong " + i]] as const) {
          const start = performance.now();
          expect(await hasher.verify(hash, password)).toBe(kind === "right");
          timings[kind].push(performance.now() - start);
        }
      }
      const [wrong, rightest] = [Math.min(...timings.wrong), Math.min(...timings.right)];
      const ratio = wrong / rightest;
      expect(ratio, `${name}: wrong ${wrong.toFixed(1)} ms, right ${rightest.toFixed(1)} ms`).toBeGreaterThan(0.6);
      expect(ratio, `${name}: wrong ${wrong.toFixed(1)} ms, right ${rightest.toFixed(1)} ms`).toBeLessThan(1.6);
    }
  });

  it("#12.2: Argon2 jobs (on libuv's pool) and scrypt jobs (in the workers) answered together each get their own answer", async () => {
    const argonHash = await argon2.hash("argon pass", { type: argon2.argon2id, memoryCost: 4096, timeCost: 2, parallelism: 1 });
    const scryptHash = await scryptReference("scrypt pass", "00112233445566778899aabbccddeeff");
    const jobs: [string, string, boolean][] = [];
    for (let i = 0; i < 6; i++) {
      jobs.push([argonHash, i % 2 ? "argon pass" : "nope", i % 2 === 1]);
      jobs.push([scryptHash, i % 3 ? "scrypt pass" : "nope", i % 3 !== 0]);
    }
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const results = await Promise.all(jobs.map(([hash, password]) => hasher.verify(hash, password)));
    clearInterval(timer);
    expect(results).toEqual(jobs.map(([, , expected]) => expected));
    expect(ticks).toBeGreaterThan(5); // the event loop kept running meanwhile
  });
});
