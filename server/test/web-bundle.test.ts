import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { loadWebApp } from "../src/web-app.js";

/**
 * Issue #13: the built web app (web/dist, which `npm test` builds first) is split by page and by language, and the
 * sign-in page's JavaScript stays within its budget, counted in gzip bytes as the service sends them. What it loads
 * comes from Vite's manifest: the entry and everything it imports statically, the sign-in page's chunk and its
 * imports, and the English messages (a visitor's first language; any other is a chunk of the same kind).
 */

const DIST = resolve(dirname(fileURLToPath(import.meta.url)), "../../web/dist");
const MANIFEST = join(DIST, ".vite/manifest.json");

/**
 * The budget for the sign-in page's JavaScript, gzip (issue #13). React's API is Preact's compatibility layer in the
 * build (web/vite.config.ts), which keeps the page at about 76 kB (bench/README.md, "Web performance").
 */
const SIGN_IN_JS_LIMIT = 120_000;

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

function readManifest(): Record<string, ManifestChunk> {
  if (!existsSync(MANIFEST)) throw new Error(`${MANIFEST} is missing: run \`npm run build -w @gatehouse/web\` first`);
  return JSON.parse(readFileSync(MANIFEST, "utf8")) as Record<string, ManifestChunk>;
}

/** The chunks a module needs before it runs: itself and its static imports, recursively. */
function staticClosure(manifest: Record<string, ManifestChunk>, keys: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the web build's manifest`);
    seen.add(key);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  keys.forEach(visit);
  return seen;
}

/** The gzip bytes the service sends for a built file: the build's .gz copy (web/vite.config.ts), else gzip -9. */
function gzipBytes(file: string): number {
  const path = join(DIST, file);
  const copy = path + ".gz";
  return existsSync(copy) ? readFileSync(copy).length : gzipSync(readFileSync(path), { level: 9 }).length;
}

describe("web build (issue #13)", () => {
  const manifest = readManifest();
  const signIn = staticClosure(manifest, ["index.html", "src/routes/sign-in/sign-in-page.tsx", "src/i18n/en.ts"]);
  const files = [...signIn].map((key) => manifest[key]!.file).filter((file) => file.endsWith(".js"));

  it(`keeps the sign-in page's JavaScript within ${SIGN_IN_JS_LIMIT / 1000} kB gzip`, () => {
    const sizes = files.map((file) => ({ file, gzip: gzipBytes(file) })).sort((a, b) => b.gzip - a.gzip);
    const total = sizes.reduce((sum, { gzip }) => sum + gzip, 0);
    const listing = sizes.map(({ file, gzip }) => `${file} ${(gzip / 1000).toFixed(1)} kB`).join(", ");
    expect(total, `sign-in loads ${(total / 1000).toFixed(1)} kB gzip: ${listing}`).toBeLessThanOrEqual(SIGN_IN_JS_LIMIT);
  });

  it("loads no other page and no other language on the sign-in page", () => {
    const pages = Object.keys(manifest).filter((key) => /^src\/routes\//.test(key) && manifest[key]!.isEntry !== true);
    const locales = Object.keys(manifest).filter((key) => /^src\/i18n\/[a-z]{2}\.ts$/.test(key));
    // Every page and every language is a chunk of its own, fetched by a dynamic import.
    expect(pages.length).toBeGreaterThanOrEqual(15);
    expect(locales.sort()).toEqual(["de", "en", "es", "fr", "pl", "ru", "tr", "uk"].map((code) => `src/i18n/${code}.ts`));
    const loaded = [...signIn];
    expect(loaded.filter((key) => locales.includes(key))).toEqual(["src/i18n/en.ts"]);
    // The only page module sign-in loads besides its own is the 404, which the administrators' guard shows in place.
    expect(loaded.filter((key) => pages.includes(key) && key !== "src/routes/sign-in/sign-in-page.tsx")).toEqual(
      loaded.filter((key) => key === "src/routes/not-found/not-found-page.tsx"),
    );
  });

  it("is served compressed by Accept-Encoding, with a copy of each kind beside every script", async () => {
    const app = loadWebApp(DIST)!;
    expect(app).not.toBeNull();
    const entry = `/${manifest["index.html"]!.file}`;
    for (const [accept, encoding] of [
      ["gzip, deflate, br, zstd", "br"],
      ["gzip", "gzip"],
    ] as const) {
      const response = app.serve(new Request(`http://localhost${entry}`, { headers: { "accept-encoding": accept } }))!;
      expect(response.status).toBe(200);
      expect(response.headers.get("content-encoding")).toBe(encoding);
      expect(response.headers.get("vary")).toBe("accept-encoding");
    }
    const page = app.serve(new Request("http://localhost/sign-in", { headers: { "accept-encoding": "br" } }))!;
    expect(page.headers.get("content-encoding")).toBe("br");
    for (const file of files) {
      expect(existsSync(join(DIST, file + ".br")), file).toBe(true);
      expect(existsSync(join(DIST, file + ".gz")), file).toBe(true);
    }
  });
});
