import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, extname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Serves the built web app (web/dist) from memory: files are read once at start, hashed assets are cached
 * for a year, every other path that is not a file answers index.html so the app's router can take it.
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

const SECURITY_HEADERS: Record<string, string> = {
  "content-security-policy":
    "default-src 'self'; img-src 'self' data: https:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'",
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
};

interface StaticFile {
  body: Buffer;
  type: string;
  etag: string;
  immutable: boolean;
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

function collect(root: string, dir: string, files: Map<string, StaticFile>): void {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      collect(root, path, files);
      continue;
    }
    const body = readFileSync(path);
    const url = "/" + relative(root, path).split(sep).join("/");
    files.set(url, {
      body,
      type: TYPES[extname(name).toLowerCase()] ?? "application/octet-stream",
      etag: `"${createHash("sha1").update(body).digest("base64url")}"`,
      immutable: url.startsWith("/assets/"),
    });
  }
}

export function loadWebApp(root: string): WebApp | null {
  if (!existsSync(join(root, "index.html"))) return null;
  const files = new Map<string, StaticFile>();
  collect(root, root, files);
  const index = files.get("/index.html")!;

  const respond = (file: StaticFile, request: Request, status = 200): Response => {
    const headers = new Headers(SECURITY_HEADERS);
    headers.set("content-type", file.type);
    headers.set("etag", file.etag);
    headers.set("cache-control", file.immutable ? "public, max-age=31536000, immutable" : "no-cache");
    if (request.headers.get("if-none-match") === file.etag) return new Response(null, { status: 304, headers });
    return new Response(request.method === "HEAD" ? null : new Uint8Array(file.body), { status, headers });
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
