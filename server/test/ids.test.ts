import { expect, it } from "vitest";
import { ALPHANUMERIC, generateId, randomString, timeOrderedId } from "../src/crypto/random.js";

it("makes time-ordered ids of generateId's form that sort by their time, each with 24 random characters", () => {
  const form = /^[A-Za-z0-9]{32}$/;
  expect(generateId()).toMatch(form);
  const times = [0, 1, 61, 62, 1_000_000, Date.parse("2026-11-25T10:00:00.000Z"), Date.parse("2026-11-25T10:00:00.001Z"), Date.parse("2100-01-01T00:00:00Z")];
  const ids = times.map((time) => timeOrderedId(time));
  for (const id of ids) expect(id).toMatch(form);
  // Byte order (SQLite's and PostgreSQL's "C" comparison) is creation order.
  expect([...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(ids);
  expect(ids[0]!.slice(0, 8)).toBe("00000000");
  expect(ids[3]!.slice(0, 8)).toBe("00000010");
  // The same millisecond: the same prefix, different ids.
  const same = new Set(Array.from({ length: 1000 }, () => timeOrderedId(times[5])));
  expect(same.size).toBe(1000);
  expect(new Set([...same].map((id) => id.slice(0, 8))).size).toBe(1);
});

it("draws random strings from a pool of CSPRNG bytes that never hands a byte out twice, across many refills", () => {
  // 20,000 ids take about 50 bytes each: some 240 pools of 4 KiB. A byte handed out twice would repeat an id.
  const ids = Array.from({ length: 20_000 }, () => generateId());
  expect(new Set(ids).size).toBe(ids.length);
  // The characters stay uniform (rejection sampling over the pool's bytes): each of the 62 within 10% of its share.
  const counts = new Map<string, number>();
  for (const id of ids) for (const c of id) counts.set(c, (counts.get(c) ?? 0) + 1);
  const share = (ids.length * 32) / ALPHANUMERIC.length;
  expect(counts.size).toBe(ALPHANUMERIC.length);
  for (const count of counts.values()) expect(Math.abs(count - share) / share).toBeLessThan(0.1);
  // Longer than a pool: drawn on its own.
  const long = randomString(10_000, "01");
  expect(long).toMatch(/^[01]{10000}$/);
  expect(Math.abs(long.split("1").length - 1 - 5000)).toBeLessThan(400);
});
