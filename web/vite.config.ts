import react from "@vitejs/plugin-react";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { extname, join, resolve } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { defineConfig, type Plugin, type Rolldown } from "vite";

/** The files worth compressing: text. Images other than SVG and fonts are compressed already. */
const COMPRESSIBLE = new Set([".html", ".js", ".mjs", ".css", ".json", ".svg", ".txt", ".webmanifest"]);

/**
 * Writes a Brotli (`.br`, quality 11) and a gzip (`.gz`, level 9) copy beside every text file of the build, once,
 * so the service answers each request with the smallest one the browser accepts without compressing anything
 * itself (server/src/web-app.ts). A copy that would not be smaller than the file is not written.
 */
function precompress(): Plugin {
  let outDir = "";
  return {
    name: "gatehouse:precompress",
    apply: "build",
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir).flatMap((name) => {
          const path = join(dir, name);
          return statSync(path).isDirectory() ? walk(path) : [path];
        });
      for (const path of walk(outDir)) {
        if (!COMPRESSIBLE.has(extname(path))) continue;
        const body = readFileSync(path);
        const br = brotliCompressSync(body, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
          },
        });
        const gz = gzipSync(body, { level: 9 });
        if (br.length < body.length) writeFileSync(path + ".br", br);
        if (gz.length < body.length) writeFileSync(path + ".gz", gz);
      }
    },
  };
}

/** Libraries that change together go in one chunk, cached across releases of the app's own code. */
const VENDOR_CHUNKS: { name: string; test: RegExp }[] = [
  { name: "preact", test: /[\\/]node_modules[\\/]preact[\\/]/ },
  { name: "router", test: /[\\/]node_modules[\\/](react-router|cookie|set-cookie-parser)[\\/]/ },
  { name: "i18n", test: /[\\/]node_modules[\\/](i18next|react-i18next|html-parse-stringify|void-elements|use-sync-external-store)[\\/]/ },
];

/** The pages anyone may open signed out; the rest are the signed-in app's (router.tsx). */
const PUBLIC_PAGES = /[\\/]src[\\/]routes[\\/](sign-in|sign-up|forgot-password|reset-password)[\\/]/;

/**
 * The app's own modules that several pages share, in two chunks instead of one per combination of pages (which
 * made dozens of sub-kilobyte files, each a request of its own): what any signed-out page uses ("public", loaded by
 * the sign-in page), and what only signed-in pages share ("app"). A module only one page uses stays in that page's
 * chunk, and one the entry imports stays in the entry.
 */
function sharedAppChunk(id: string, ctx: Rolldown.ChunkingContext): string | null {
  if (!/[\\/]web[\\/]src[\\/]/.test(id) || /[\\/]src[\\/]i18n[\\/]/.test(id)) return null;
  const pages = pagesUsing(id, ctx, new Set());
  if (pages.has(ENTRY) || pages.size < 2) return null;
  return [...pages].some((page) => PUBLIC_PAGES.test(page)) ? "public" : "app";
}

const ENTRY = "entry";
const pagesMemo = new Map<string, Set<string>>();

/** The pages (modules router.tsx imports dynamically) whose static imports reach `id`; ENTRY when main.tsx's do. */
function pagesUsing(id: string, ctx: Rolldown.ChunkingContext, visiting: Set<string>): Set<string> {
  const known = pagesMemo.get(id);
  if (known) return known;
  const info = ctx.getModuleInfo(id);
  const pages = new Set<string>();
  if (!info || visiting.has(id)) return pages;
  visiting.add(id);
  if (info.isEntry) pages.add(ENTRY);
  if (info.dynamicImporters.some((importer) => /[\\/]src[\\/]router\.tsx$/.test(importer))) pages.add(id);
  for (const importer of info.importers) for (const page of pagesUsing(importer, ctx, visiting)) pages.add(page);
  visiting.delete(id);
  pagesMemo.set(id, pages);
  return pages;
}

// The built app is served by the service at "/"; in development Vite proxies the API to a running service.
// Every page and every language is a chunk of its own (router.tsx, i18n/index.ts); the manifest lists which chunks
// each one needs, for the bundle budget (server/test/web-bundle.test.ts).
/**
 * React's API is served by Preact's compatibility layer (about 12 kB gzip instead of react-dom's 67), so the sign-in
 * page stays within its 120 kB of JavaScript (bench/README.md, "Web performance"). The code, React Router, react-i18next,
 * @nanostores/react and @gatehouse/client/react import "react" as usual; TypeScript still checks against @types/react.
 */
const PREACT_ALIASES = [
  { find: /^react$/, replacement: "preact/compat" },
  { find: /^react-dom$/, replacement: "preact/compat" },
  { find: /^react-dom\/client$/, replacement: "preact/compat/client" },
  { find: /^react\/jsx-runtime$/, replacement: "preact/compat/jsx-runtime" },
  { find: /^react\/jsx-dev-runtime$/, replacement: "preact/compat/jsx-dev-runtime" },
];

export default defineConfig({
  // React Fast Refresh cannot redraw Preact's components: in development an edited module reloads the page instead.
  plugins: [react({ refreshExclude: /./ }), precompress()],
  resolve: { alias: PREACT_ALIASES },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    sourcemap: false,
    manifest: true,
    // Every browser the app supports knows <link rel="modulepreload">.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      // React Router looks for React 19's useOptimistic and does without it when it is missing, as under Preact.
      onLog(level, log, handler) {
        if (log.code === "IMPORT_IS_UNDEFINED" && log.message.includes("useOptimistic")) return;
        handler(level, log);
      },
      output: {
        codeSplitting: {
          groups: [...VENDOR_CHUNKS.map(({ name, test }) => ({ name, test })), { name: sharedAppChunk, includeDependenciesRecursively: false }],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: { "/api": { target: process.env.GATEHOUSE_URL ?? "http://localhost:3000", changeOrigin: false } },
  },
});
