// The administrators' user list under a large user table: 100,000 made-up users, the same on every database (a
// seeded generator), written straight into Gatehouse's "user" table; and the list-users requests the benchmark
// loads, each with what it must answer, computed here from the same rows.
import Database from "better-sqlite3";
import pg from "pg";

const FIRST = [
  "Maria", "Mark", "Marco", "Martha", "Martin", "Marie", "Mario", "Marta", "Anna", "Anne", "Andrew", "Andrea",
  "James", "John", "Johanna", "José", "Julia", "Julien", "Laura", "Lucas", "Luca", "Léa", "Liam", "Lena", "Noah",
  "Nora", "Emma", "Emil", "Ethan", "Elena", "Olivia", "Oliver", "Sofia", "Sophie", "Samuel", "Sara", "David",
  "Daniel", "Chloé", "Charlotte", "Chen", "Wei", "Yuki", "Hiroshi", "Aisha", "Omar", "Fatima", "Ahmed", "Priya",
  "Arjun", "Ingrid", "Björn", "Zoë", "Mateo", "Valentina", "Diego", "Camila", "Thomas", "Tomás", "Paul", "Paula",
  "Peter", "Petra", "Kevin", "Karen", "Nadia", "Ivan", "Olga", "Grace", "Henry", "Isabel", "Jack", "Kai", "Mia",
];
const LAST = [
  "Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez",
  "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin", "Lee",
  "Perez", "Thompson", "White", "Harris", "Sanchez", "Clark", "Ramirez", "Lewis", "Robinson", "Walker", "Young",
  "Müller", "Schmidt", "Schneider", "Fischer", "Weber", "Dubois", "Lefèvre", "Moreau", "Rossi", "Russo", "Bianchi",
  "Kowalski", "Nowak", "Novák", "Svensson", "Johansson", "Nielsen", "Jensen", "Tanaka", "Suzuki", "Watanabe",
  "Wang", "Li", "Zhang", "Liu", "Chen", "Kim", "Park", "Nguyen", "Tran", "Singh", "Patel", "Sharma", "Khan",
  "Ali", "Hassan", "Ivanov", "Petrov", "O'Brien", "Murphy", "Kelly", "Silva", "Santos", "Costa", "Oliveira",
];
const DOMAINS = [
  "gmail.com", "gmail.com", "gmail.com", "outlook.com", "yahoo.com", "proton.me", "icloud.com", "fastmail.com",
  "example.org", "acme-corp.com", "globex.io", "initech.net", "umbrella.co", "hooli.dev", "uni-berlin.de",
];
const LANGS = ["en", "en", "en", "de", "fr", "es", "ja", null, null, null];
const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** mulberry32: a small seeded generator, so every run (and both databases) get the same users. */
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ascii = (s) => s.normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/[^A-Za-z]/g, "").toLowerCase();

/**
 * count users: names from a list of common first and last names (some with a middle initial), addresses in a few
 * shapes over 15 domains (all distinct), sign-up dates over the three years before `end` with more recent ones more
 * frequent (all distinct, one per millisecond at most), 80% verified, 25% with a username, 2% banned (half until
 * a date), 20 administrators, the rest role "user".
 */
export function makeUsers(count, end = Date.parse("2026-11-01T00:00:00Z")) {
  const random = generator(20261122);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const span = 3 * 365 * 86_400_000;
  const emails = new Set();
  const usernames = new Set();
  const times = new Set();
  const users = [];
  for (let i = 0; i < count; i++) {
    const first = pick(FIRST);
    const last = pick(LAST);
    const middle = random() < 0.08 ? ` ${ALPHANUMERIC[Math.floor(random() * 26)]}.` : "";
    const name = `${first}${middle} ${last}`;
    const f = ascii(first);
    const l = ascii(last);
    const shape = random();
    const local =
      shape < 0.4
        ? `${f}.${l}`
        : shape < 0.6
          ? `${f[0]}${l}`
          : shape < 0.75
            ? `${l}.${f}`
            : shape < 0.9
              ? `${f}${l}`
              : `${f}_${Math.floor(random() * 10_000)}`;
    const domain = pick(DOMAINS);
    let email = `${local}@${domain}`;
    for (let n = 2; emails.has(email); n++) email = `${local}${n === 2 ? Math.floor(random() * 100) : n}@${domain}`;
    emails.add(email);

    let createdAt = end - Math.floor(span * (1 - Math.sqrt(random())));
    while (times.has(createdAt)) createdAt += 1;
    times.add(createdAt);
    const updatedAt = createdAt + Math.floor(random() * (end - createdAt));

    let id = "";
    for (let k = 0; k < 32; k++) id += ALPHANUMERIC[Math.floor(random() * ALPHANUMERIC.length)];

    let username = null;
    let displayUsername = null;
    if (random() < 0.25) {
      username = `${f}${l}${Math.floor(random() * 1000)}`;
      while (usernames.has(username)) username += Math.floor(random() * 10);
      usernames.add(username);
      displayUsername = `${first}${last}`.replace(/[^\p{L}]/gu, "") + username.slice(f.length + l.length);
    }
    const banned = random() < 0.02;
    users.push({
      id,
      name,
      email,
      emailVerified: random() < 0.8,
      image: random() < 0.3 ? `https://avatars.example.com/${id.slice(0, 12)}.png` : null,
      createdAt,
      updatedAt,
      username,
      displayUsername,
      role: i % 5000 === 4999 ? "admin" : "user",
      banned,
      banReason: banned ? pick(["Spam", "Abuse", "Chargeback", "Bot traffic"]) : null,
      banExpires: banned && random() < 0.5 ? end + Math.floor(random() * 90) * 86_400_000 : null,
      lang: pick(LANGS),
    });
  }
  return users;
}

const COLUMNS = [
  "id", "name", "email", "emailVerified", "image", "createdAt", "updatedAt", "username", "displayUsername", "role",
  "banned", "banReason", "banExpires", "lang",
];
const PG_TYPES = {
  emailVerified: "boolean", banned: "boolean", createdAt: "timestamptz", updatedAt: "timestamptz", banExpires: "timestamptz",
};
const DATE_COLUMNS = new Set(["createdAt", "updatedAt", "banExpires"]);
const iso = (ms) => (ms === null ? null : new Date(ms).toISOString());

/**
 * Writes the users into PostgreSQL, 10,000 rows per INSERT … SELECT FROM unnest(arrays), then VACUUM ANALYZE;
 * returns the database's collation.
 */
export async function seedPostgres(url, users) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const columns = COLUMNS.map((c) => `"${c}"`).join(", ");
    const arrays = COLUMNS.map((c, i) => `$${i + 1}::${PG_TYPES[c] ?? "text"}[]`).join(", ");
    for (let start = 0; start < users.length; start += 10_000) {
      const batch = users.slice(start, start + 10_000);
      const values = COLUMNS.map((c) => batch.map((u) => (DATE_COLUMNS.has(c) ? iso(u[c]) : u[c])));
      await client.query(`INSERT INTO "user" (${columns}) SELECT * FROM unnest(${arrays})`, values);
    }
    // As autovacuum would do soon after such an import: fresh statistics and visibility map.
    await client.query('VACUUM ANALYZE "user"');
    const { rows } = await client.query("SELECT datcollate FROM pg_database WHERE datname = current_database()");
    return { collation: rows[0].datcollate };
  } finally {
    await client.end();
  }
}

/** Writes the users into the SQLite file, as the server stores them (ISO dates, 0/1 booleans), then ANALYZE. */
export function seedSqlite(path, users) {
  const db = new Database(path);
  try {
    db.pragma("busy_timeout = 10000");
    const insert = db.prepare(`INSERT INTO "user" (${COLUMNS.map((c) => `"${c}"`).join(", ")}) VALUES (${COLUMNS.map(() => "?").join(", ")})`);
    db.transaction(() => {
      for (const u of users) {
        insert.run(...COLUMNS.map((c) => (DATE_COLUMNS.has(c) ? iso(u[c]) : typeof u[c] === "boolean" ? (u[c] ? 1 : 0) : u[c])));
      }
    })();
    db.exec("ANALYZE");
  } finally {
    db.close();
  }
}

/**
 * The list-users requests measured: what each asks (query string) and which of the users it selects, in which
 * order. Sorting compares strings by code point, as PostgreSQL's C collation and SQLite's BINARY do.
 */
export const ADMIN_QUERIES = [
  { key: "first-page", label: "first page (25, default sort: createdAt asc)", query: { limit: 25 }, sort: ["createdAt", "asc"] },
  { key: "deep-page", label: "deep page (25 at offset 50,000)", query: { limit: 25, offset: 50_000 }, sort: ["createdAt", "asc"] },
  { key: "newest", label: "sort by createdAt desc (25)", query: { limit: 25, sortBy: "createdAt", sortDirection: "desc" }, sort: ["createdAt", "desc"] },
  { key: "by-name", label: "sort by name (25)", query: { limit: 25, sortBy: "name" }, sort: ["name", "asc"] },
  {
    key: "email-contains",
    label: 'search email contains "martin" (25)',
    query: { limit: 25, searchField: "email", searchOperator: "contains", searchValue: "martin" },
    where: (u) => u.email.includes("martin"),
    sort: ["createdAt", "asc"],
  },
  {
    key: "name-starts",
    label: 'search name starts_with "mar" (25)',
    query: { limit: 25, searchField: "name", searchOperator: "starts_with", searchValue: "mar" },
    where: (u) => u.name.toLowerCase().startsWith("mar"),
    sort: ["createdAt", "asc"],
  },
  {
    key: "name-contains",
    label: 'search name contains "grace kowalski", newest first (20; the web console\'s search)',
    query: { limit: 20, sortBy: "createdAt", sortDirection: "desc", searchField: "name", searchValue: "grace kowalski" },
    where: (u) => u.name.toLowerCase().includes("grace kowalski"),
    sort: ["createdAt", "desc"],
  },
  {
    key: "role-admin",
    label: "filter role eq admin (25)",
    query: { limit: 25, filterField: "role", filterValue: "admin", filterOperator: "eq" },
    where: (u) => u.role === "admin",
    sort: ["createdAt", "asc"],
  },
  {
    key: "role-contains",
    label: 'filter role contains "admin", newest first (20; the web console\'s Admins filter)',
    query: { limit: 20, sortBy: "createdAt", sortDirection: "desc", filterField: "role", filterValue: "admin", filterOperator: "contains" },
    where: (u) => u.role.includes("admin"),
    sort: ["createdAt", "desc"],
  },
  {
    key: "banned",
    label: "filter banned eq true (25)",
    query: { limit: 25, filterField: "banned", filterValue: "true", filterOperator: "eq" },
    where: (u) => u.banned === true,
    sort: ["createdAt", "asc"],
  },
];

export const queryPath = (q) => `/api/auth/admin/list-users?${new URLSearchParams(q.query)}`;

/** What one request must answer: the total and the ids of the page, from the users as stored. */
export function expectedPage(q, users) {
  const [field, direction] = q.sort;
  const sign = direction === "desc" ? -1 : 1;
  const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
  const matching = q.where ? users.filter(q.where) : users.slice();
  matching.sort((a, b) => sign * (cmp(a[field], b[field]) || cmp(a.id, b.id)));
  const offset = q.query.offset ?? 0;
  return { total: matching.length, ids: matching.slice(offset, offset + q.query.limit).map((u) => u.id) };
}

/** One request of each kind, checked against what it must answer; throws on the first difference. */
export async function checkQueries(base, cookie, users, { checkOrder = true } = {}) {
  const checked = {};
  for (const q of ADMIN_QUERIES) {
    const response = await fetch(base + queryPath(q), { headers: { cookie } });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`list-users ${q.key} answered ${response.status}: ${text.slice(0, 300)}`);
    const body = JSON.parse(text);
    const want = expectedPage(q, users);
    if (body.total !== want.total) throw new Error(`list-users ${q.key}: total ${body.total}, expected ${want.total}`);
    const ids = body.users.map((u) => u.id);
    if (ids.length !== want.ids.length) throw new Error(`list-users ${q.key}: ${ids.length} users, expected ${want.ids.length}`);
    if (checkOrder && ids.join() !== want.ids.join()) {
      throw new Error(`list-users ${q.key}: page differs from the expected one (first ${ids[0]}, expected ${want.ids[0]})`);
    }
    checked[q.key] = { total: body.total, bytes: Buffer.byteLength(text) };
  }
  return checked;
}
