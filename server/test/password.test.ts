import { afterAll, describe, expect, it } from "vitest";
import { createPasswordHasher, scryptReference } from "../src/credentials/password.js";

describe("password hashing", () => {
  const hasher = createPasswordHasher({ concurrency: 2, nice: 10 });
  afterAll(() => hasher.close());

  it("writes saltHex:keyHex with scrypt N=16384 r=16 p=1 and a 64-byte key, the hex salt string as salt", async () => {
    const hash = await hasher.hash("pässwörd ﬁ");
    expect(hash).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/);
    const [salt] = hash.split(":");
    expect(await scryptReference("pässwörd ﬁ", salt!)).toBe(hash);
  });

  it("verifies a hash made elsewhere in the same format, NFKC-normalised", async () => {
    const salt = "0123456789abcdef0123456789abcdef";
    const stored = await scryptReference("ﬁne password", salt);
    expect(await hasher.verify(stored, "fine password")).toBe(true);
    expect(await hasher.verify(stored, "fine passwort")).toBe(false);
  });

  it("treats a malformed stored hash as a mismatch", async () => {
    expect(await hasher.verify("garbage", "x")).toBe(false);
    expect(await hasher.verify("abc:zz", "x")).toBe(false);
  });

  it("answers each of many concurrent jobs with its own result (two held per worker)", async () => {
    const salt = "00112233445566778899aabbccddeeff";
    const stored = await scryptReference("right", salt);
    const attempts = ["right", "wrong", "right", "wrong", "wrong", "right", "right"];
    const [results, hashes] = await Promise.all([
      Promise.all(attempts.map((attempt) => hasher.verify(stored, attempt))),
      Promise.all(["a", "b", "c"].map((password) => hasher.hash(password))),
    ]);
    expect(results).toEqual(attempts.map((attempt) => attempt === "right"));
    for (const [i, password] of ["a", "b", "c"].entries()) {
      expect(await scryptReference(password, hashes[i]!.split(":")[0]!)).toBe(hashes[i]);
    }
  });

  it("keeps the event loop free while a hash runs", async () => {
    // A hash on the main thread would let no timer fire until it finished; on a worker, timers keep firing.
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    await hasher.hash("event-loop-check");
    clearInterval(timer);
    expect(ticks).toBeGreaterThanOrEqual(3);
  });
});

describe("closing the password hasher", () => {
  it("answers the hashes still queued or running 503, and refuses new ones the same way", async () => {
    const hasher = createPasswordHasher({ concurrency: 1, nice: 10 });
    // One running, one waiting in the worker's port, two in the queue.
    const pending = Array.from({ length: 4 }, (_, i) => hasher.hash(`password-${i}`).then(() => "hashed", (error: unknown) => error));
    await hasher.close();
    const outcomes = await Promise.all(pending);
    for (const outcome of outcomes) {
      if (outcome === "hashed") continue; // one may have finished before close() stopped its worker
      expect(outcome).toMatchObject({ status: 503 });
    }
    expect(outcomes.filter((o) => o !== "hashed").length).toBeGreaterThanOrEqual(3);
    await expect(hasher.hash("late")).rejects.toMatchObject({ status: 503 });
  });
});
