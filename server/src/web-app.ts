import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, extname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";

/**
 * Serves the built web app (web/dist) from memory: files are read once at start, hashed assets are cached
 * for a year, every other path that is not a file answers index.html so the app's router can take it.
 *
 * Text files are sent compressed (issue #13): Brotli or gzip, whichever the request's Accept-Encoding prefers, each
 * with its own ETag, and `Vary: Accept-Encoding`. The web build writes a `.br` and a `.gz` copy beside each of them
 * (web/vite.config.ts, Brotli at its highest quality, which is too slow to do at start); a file without them is
 * compressed here once, at load.
 *
 * Why not Hono's serveStatic (`@hono/node-server/serve-static`, `precompressed: true`): it reads the disk at every
 * request, sends no ETag and answers no If-None-Match (every revisit would download the app again), and passes over a
 * coding given with a weight in Accept-Encoding (`gzip;q=1.0`); the fallback to index.html for the app's own routes
 * and the security headers below would wrap it anyway.
 */
const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".ico": "image/x-icon",
  ".webp": "image/webp",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
  ".webmanifest": "application/manifest+json",
};

/** The types worth compressing (images other than SVG and fonts are compressed already). */
const COMPRESSIBLE = new Set([".html", ".js", ".mjs", ".css", ".json", ".svg", ".txt", ".webmanifest"]);

const SECURITY_HEADERS: Record<string, string> = {
  "content-security-policy":
    "default-src 'self'; img-src 'self' data: https:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'",
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
};

/** One encoding of a file: its bytes and their ETag. */
interface Variant {
  body: Buffer;
  etag: string;
}

type Encoding = "br" | "gzip";

interface StaticFile {
  type: string;
  immutable: boolean;
  identity: Variant;
  /** Present when the file is compressible and the encoding makes it smaller. */
  br?: Variant;
  gzip?: Variant;
}

export interface WebApp {
  /** Answers a GET/HEAD for the app, or null when the path is not the app's. */
  serve(request: Request): Response | null;
  root: string;
}

/** The default location of the built app, beside the server package in the repository. */
export function defaultWebRoot(): string {
  return resolve(dirname(fileURLToPath(import.meta.url)), "../../web/dist");
}

const variant = (body: Buffer): Variant => ({ body, etag: `"${createHash("sha1").update(body).digest("base64url")}"` });

const COMPRESSED_SUFFIX: Record<Encoding, string> = { br: ".br", gzip: ".gz" };

const compressors: Record<Encoding, (body: Buffer) => Buffer> = {
  br: (body) =>
    brotliCompressSync(body, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: 9, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length },
    }),
  gzip: (body) => gzipSync(body, { level: 9 }),
};

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    // Dot files and folders (Vite's .vite/manifest.json) are build records, not part of the app.
    if (name.startsWith(".")) return [];
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

function collect(root: string): Map<string, StaticFile> {
  const paths = walk(root);
  const present = new Set(paths);
  const files = new Map<string, StaticFile>();
  for (const path of paths) {
    // A .br or .gz copy of another file is that file's variant, not a file of its own.
    const copyOf = path.endsWith(".br") ? path.slice(0, -3) : path.endsWith(".gz") ? path.slice(0, -3) : null;
    if (copyOf !== null && present.has(copyOf)) continue;
    const body = readFileSync(path);
    const extension = extname(path).toLowerCase();
    const url = "/" + relative(root, path).split(sep).join("/");
    const file: StaticFile = {
      type: TYPES[extension] ?? "application/octet-stream",
      immutable: url.startsWith("/assets/"),
      identity: variant(body),
    };
    if (COMPRESSIBLE.has(extension)) {
      for (const encoding of ["br", "gzip"] as const) {
        const copy = path + COMPRESSED_SUFFIX[encoding];
        const compressed = present.has(copy) ? readFileSync(copy) : compressors[encoding](body);
        if (compressed.length < body.length) file[encoding] = variant(compressed);
      }
    }
    files.set(url, file);
  }
  return files;
}

/**
 * The quality the request's Accept-Encoding gives each coding (RFC 9110 section 12.5.3): a coding it does not name
 * takes the value of `*`, else 0; identity is acceptable unless refused. Returns the variant to send.
 */
export function chooseEncoding(header: string | null, offered: readonly Encoding[]): Encoding | "identity" {
  if (!header || offered.length === 0) return "identity";
  const qualities = new Map<string, number>();
  for (const part of header.split(",")) {
    const [token, ...params] = part.split(";");
    const name = token!.trim().toLowerCase();
    if (!name) continue;
    let q = 1;
    for (const param of params) {
      const [key, value] = param.split("=");
      if (key?.trim().toLowerCase() === "q") q = Number(value?.trim() ?? "");
    }
    qualities.set(name === "x-gzip" ? "gzip" : name, Number.isFinite(q) ? Math.min(Math.max(q, 0), 1) : 0);
  }
  const star = qualities.get("*");
  const quality = (name: string) => qualities.get(name) ?? (name === "identity" ? 1 : (star ?? 0));
  // Equal qualities go to the smaller copy: Brotli, then gzip, then the file as it is.
  let best: Encoding | "identity" = "identity";
  let bestQuality = quality("identity");
  for (const encoding of offered) {
    const q = quality(encoding);
    if (q > 0 && (q > bestQuality || (q === bestQuality && best === "identity"))) {
      best = encoding;
      bestQuality = q;
    }
  }
  return best;
}

/** Whether If-None-Match names this ETag (weak comparison, RFC 9110 section 13.1.2), or is `*`. */
function matches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(",").some((candidate) => {
    const tag = candidate.trim();
    return tag === "*" || (tag.startsWith("W/") ? tag.slice(2) : tag) === etag;
  });
}

export function loadWebApp(root: string): WebApp | null {
  if (!existsSync(join(root, "index.html"))) return null;
  const files = collect(root);
  const index = files.get("/index.html")!;

  const respond = (file: StaticFile, request: Request): Response => {
    const offered = (["br", "gzip"] as const).filter((encoding) => file[encoding] !== undefined);
    const encoding = chooseEncoding(request.headers.get("accept-encoding"), offered);
    const chosen = encoding === "identity" ? file.identity : file[encoding]!;
    const headers = new Headers(SECURITY_HEADERS);
    headers.set("content-type", file.type);
    headers.set("etag", chosen.etag);
    headers.set("cache-control", file.immutable ? "public, max-age=31536000, immutable" : "no-cache");
    if (offered.length > 0) headers.set("vary", "accept-encoding");
    if (matches(request.headers.get("if-none-match"), chosen.etag)) return new Response(null, { status: 304, headers });
    if (encoding !== "identity") headers.set("content-encoding", encoding);
    headers.set("content-length", String(chosen.body.length));
    return new Response(request.method === "HEAD" ? null : new Uint8Array(chosen.body), { status: 200, headers });
  };

  return {
    root,
    serve(request) {
      if (request.method !== "GET" && request.method !== "HEAD") return null;
      let pathname: string;
      try {
        pathname = decodeURIComponent(new URL(request.url).pathname);
      } catch {
        return null;
      }
      const file = files.get(pathname);
      if (file) return respond(file, request);
      // A missing asset is a real 404; any other path is a page of the app.
      if (pathname.startsWith("/assets/") || extname(pathname)) return null;
      return respond(index, request);
    },
  };
}
