import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = fileURLToPath(new URL("../src", import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/**
 * Where SQL may be written: the storage layer, a module's store, migrations and table declarations, and the
 * composition root (index.ts), which hands the handle to the stores and the migrator.
 */
function mayTouchTheDatabase(file: string): boolean {
  return (
    file.startsWith("storage/") ||
    /(^|\/)store\//.test(file) ||
    /(^|\/)migrations\//.test(file) ||
    /(^|\/)tables\.ts$/.test(file) ||
    file === "index.ts" ||
    file === "modules.ts"
  );
}

/** What only the storage side may do: reach the raw handle, import Kysely's values, or build a query. */
const RAW_DATABASE = [
  { what: "the raw database handle", pattern: /\bdatabase\.db\b|\bruntime\.database\b/ },
  { what: "a value import of kysely", pattern: /^import\s+(?!type\b)[^;]*from\s+"kysely"/m },
  { what: "a query builder call", pattern: /\.(selectFrom|insertInto|updateTable|deleteFrom|with)\(\s*"/ },
  { what: "a transaction opened on a handle", pattern: /\.transaction\(\)\s*\.execute\(/ },
];

describe("module boundaries (issue #13 point 4)", () => {
  it("no handler or domain file touches the raw database: they call stores, and stores.transaction(fn)", () => {
    const offences: string[] = [];
    for (const path of sourceFiles(SRC)) {
      const file = relative(SRC, path).split("\\").join("/");
      if (mayTouchTheDatabase(file)) continue;
      const text = readFileSync(path, "utf8");
      for (const rule of RAW_DATABASE) if (rule.pattern.test(text)) offences.push(`${file}: ${rule.what}`);
    }
    expect(offences).toEqual([]);
  });

  it("the scan would catch an offence (its patterns match what they are meant to)", () => {
    const samples = [
      `await runtime.database.db.transaction().execute(async (trx) => {})`,
      `import { sql } from "kysely";`,
      `db.selectFrom("user").selectAll()`,
    ];
    for (const sample of samples) expect(RAW_DATABASE.some((rule) => rule.pattern.test(sample))).toBe(true);
    expect(RAW_DATABASE.some((rule) => rule.pattern.test(`import type { Kysely } from "kysely";`))).toBe(false);
  });
});
