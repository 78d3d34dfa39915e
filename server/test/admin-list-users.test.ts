import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NewUser } from "../src/storage/users.js";
import { signUpAdmin } from "./helpers/admin.js";
import { DIALECTS } from "./helpers/databases.js";
import { TestClient } from "./helpers/http-client.js";
import { startTestServer, type TestServer } from "./helpers/server.js";

const SEEDED = 300;
const BASE = Date.parse("2025-01-01T00:00:00.000Z");
const pad = (i: number) => String(i).padStart(3, "0");
const GREEK = ["Alpha", "Beta", "Gamma", "Delta"];

/**
 * The seeded users: names "Alpha 000" … "Delta 299" (the Greek word cycles), emails seed-000@seed.test …,
 * one a minute from BASE in reverse order of i (so createdAt order is not insertion order), every 25th an admin,
 * every 7th banned, the even ones verified, every 3rd with a username.
 */
const seed = (i: number): NewUser => ({
  id: `seed${pad(i)}${"x".repeat(25)}`,
  name: `${GREEK[i % 4]} ${pad(i)}`,
  email: `seed-${pad(i)}@seed.test`,
  emailVerified: i % 2 === 0,
  image: null,
  createdAt: new Date(BASE + (SEEDED - i) * 60_000),
  updatedAt: new Date(BASE),
  username: i % 3 === 0 ? `seed_${pad(i)}` : null,
  role: i % 25 === 0 ? "admin" : "user",
  banned: i % 7 === 0,
});
const SEEDS = Array.from({ length: SEEDED }, (_, i) => seed(i));
/** Names holding LIKE's own wildcards, to check that they are matched literally. */
const SPECIAL: NewUser[] = ["100% sure", "100 percent", "snake_case", "snakeXcase"].map((name, i) => ({
  ...seed(900 + i),
  name,
  email: `special-${i}@special.test`,
  createdAt: new Date(BASE - 86_400_000),
}));

describe.each(DIALECTS)("GET /admin/list-users on %s", (dialect) => {
  let server: TestServer;
  let admin: TestClient;
  beforeAll(async () => {
    server = await startTestServer(dialect);
    admin = new TestClient(server.base);
    await signUpAdmin(server, admin);
    await server.gatehouse.runtime.stores.users.createUsers([...SEEDS, ...SPECIAL]);
  });
  afterAll(async () => server?.close());

  const TOTAL = SEEDED + SPECIAL.length + 1; // the administrator who lists them
  const list = async (query: string) => {
    const res = await admin.get(`/admin/list-users${query}`);
    expect(res.status, `${query}: ${res.text.slice(0, 200)}`).toBe(200);
    return res.body as { users: { id: string; name: string; email: string; createdAt: string }[]; total: number; limit: number; offset: number };
  };
  /** Restricts a query to the seeded users (their emails all end in @seed.test). */
  const seeded = "searchField=email&searchOperator=ends_with&searchValue=@seed.test";
  const emails = (users: { email: string }[]) => users.map((u) => u.email);

  it("answers the first 100 users by creation, oldest first, with the total", async () => {
    const page = await list("");
    expect(page.total).toBe(TOTAL);
    expect(page.users).toHaveLength(100);
    expect(page).toMatchObject({ limit: 100, offset: 0 });
    const created = page.users.map((u) => Date.parse(u.createdAt));
    expect(created).toEqual([...created].sort((a, b) => a - b));
    expect(page.users[0]!.name).toBe("100% sure");
    expect(Object.keys(page.users[0]!)).toEqual(expect.arrayContaining(["id", "email", "role", "banned", "banExpires"]));
  });

  it("pages with limit and offset through every user exactly once", async () => {
    const seen: string[] = [];
    for (let offset = 0; offset < TOTAL; offset += 64) {
      const page = await list(`?limit=64&offset=${offset}`);
      expect(page.total).toBe(TOTAL);
      expect(page).toMatchObject({ limit: 64, offset });
      seen.push(...page.users.map((u) => u.id));
    }
    expect(seen).toHaveLength(TOTAL);
    expect(new Set(seen).size).toBe(TOTAL);
    const past = await list(`?offset=${TOTAL}`);
    expect(past.users).toEqual([]);
    expect(past.total).toBe(TOTAL);
  });

  it("sorts by name, email and createdAt in both directions", async () => {
    const byEmail = [...SEEDS].sort((a, b) => (a.email < b.email ? -1 : 1)).map((u) => u.email);
    expect(emails((await list(`?${seeded}&sortBy=email&limit=300`)).users)).toEqual(byEmail);
    expect(emails((await list(`?${seeded}&sortBy=email&sortDirection=desc&limit=300`)).users)).toEqual([...byEmail].reverse());

    const alphas = SEEDS.filter((u) => u.name.startsWith("Alpha")).map((u) => u.name);
    const byName = await list("?searchField=name&searchOperator=starts_with&searchValue=alpha&sortBy=name&sortDirection=desc");
    expect(byName.users.map((u) => u.name)).toEqual([...alphas].sort().reverse());

    const newest = await list(`?${seeded}&sortBy=createdAt&sortDirection=desc&limit=3`);
    expect(emails(newest.users)).toEqual(["seed-000@seed.test", "seed-001@seed.test", "seed-002@seed.test"]);
  });

  it("searches name and email, case-insensitively, by contains, starts_with and ends_with", async () => {
    const contains = await list("?searchField=name&searchValue=ELTA%2001");
    expect(contains.users.map((u) => u.name).sort()).toEqual(["Delta 011", "Delta 015", "Delta 019"]);
    expect(contains.total).toBe(3);
    const starts = await list("?searchField=email&searchOperator=starts_with&searchValue=SEED-29&limit=5");
    expect(starts.total).toBe(10);
    expect(starts.users).toHaveLength(5);
    const ends = await list("?searchField=name&searchOperator=ends_with&searchValue=99");
    expect(ends.users.map((u) => u.name).sort()).toEqual(["Delta 099", "Delta 199", "Delta 299"]);
    const byDefault = await list("?searchValue=seed-12");
    expect(byDefault.total).toBe(10);
    const username = await list("?searchField=username&searchOperator=starts_with&searchValue=seed_29");
    expect(username.total).toBe(3);
  });

  it("matches % and _ in the search literally", async () => {
    expect((await list("?searchField=name&searchValue=100%25")).users.map((u) => u.name)).toEqual(["100% sure"]);
    expect((await list("?searchField=name&searchValue=e_c")).users.map((u) => u.name)).toEqual(["snake_case"]);
    expect((await list("?searchField=name&searchValue=%5C")).total).toBe(0);
  });

  it("filters by role, banned, emailVerified and dates, with every operator", async () => {
    const count = (filter: (u: NewUser) => boolean) => SEEDS.filter(filter).length;
    const cases: [string, number][] = [
      ["filterField=role&filterValue=admin", count((u) => u.role === "admin")],
      ["filterField=role&filterOperator=ne&filterValue=admin", count((u) => u.role !== "admin")],
      ["filterField=banned&filterValue=true", count((u) => u.banned === true)],
      ["filterField=emailVerified&filterValue=false", count((u) => !u.emailVerified)],
      ["filterField=role&filterOperator=in&filterValue=admin&filterValue=user", SEEDED],
      ["filterField=role&filterOperator=in&filterValue=admin,nobody", count((u) => u.role === "admin")],
      ["filterField=role&filterOperator=not_in&filterValue=admin", count((u) => u.role !== "admin")],
      ["filterField=email&filterValue=SEED-007@SEED.TEST", 1],
      ["filterField=name&filterOperator=contains&filterValue=gamma", count((u) => u.name.startsWith("Gamma"))],
      [`filterField=createdAt&filterOperator=gt&filterValue=${new Date(BASE + 200 * 60_000).toISOString()}`, 100],
      [`filterField=createdAt&filterOperator=lte&filterValue=${new Date(BASE + 200 * 60_000).toISOString()}`, 200],
      [`filterField=createdAt&filterOperator=gte&filterValue=${new Date(BASE + 300 * 60_000).toISOString()}`, 1],
      [`filterField=createdAt&filterOperator=lt&filterValue=${new Date(BASE + 2 * 60_000).toISOString()}`, 1],
    ];
    for (const [filter, expected] of cases) {
      const page = await list(`?${seeded}&${filter}&limit=1000`);
      expect(page.total, filter).toBe(expected);
      expect(page.users, filter).toHaveLength(expected);
    }
  });

  it("combines search, filter, sort and paging, and counts what matches", async () => {
    const matching = SEEDS.filter((u) => u.name.startsWith("Beta") && u.banned).sort((a, b) => (a.name < b.name ? 1 : -1));
    const page = await list("?searchField=name&searchValue=beta&filterField=banned&filterValue=1&sortBy=name&sortDirection=desc&limit=4&offset=2");
    expect(page.total).toBe(matching.length);
    expect(page.users.map((u) => u.name)).toEqual(matching.slice(2, 6).map((u) => u.name));
  });

  it("refuses columns off the allow-list, bad values and oversized pages with 400 VALIDATION_ERROR", async () => {
    for (const query of [
      "sortBy=password",
      "sortBy=id;drop table user",
      "sortDirection=sideways",
      "searchField=role",
      "searchOperator=regex",
      "filterField=banReason&filterValue=x",
      "filterOperator=like&filterValue=x",
      "filterField=banned&filterValue=maybe",
      "filterField=createdAt&filterValue=yesterday",
      "filterField=banned&filterOperator=contains&filterValue=t",
      "limit=1001",
      "limit=-1",
      "limit=ten",
      "offset=1.5",
    ]) {
      const res = await admin.get(`/admin/list-users?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.code, query).toBe("VALIDATION_ERROR");
    }
  });
});
