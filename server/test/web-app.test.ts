import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGatehouse, serveGatehouse, type Gatehouse, type RunningServer } from "../src/index.js";
import { createLogger } from "../src/logger.js";
import { chooseEncoding, loadWebApp, type WebApp } from "../src/web-app.js";
import { TEST_SECRET } from "./helpers/server.js";

/** Issue #13: the web app's files are sent compressed, by Accept-Encoding, each encoding with its own ETag. */

const SCRIPT = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word number ${i}`))};\n`;
const INDEX = `<!doctype html><html lang="en"><head><title>Gatehouse</title></head><body><div id="root"></div>${"<!-- padding -->".repeat(40)}</body></html>`;

function makeRoot(withCopies: boolean): string {
  const root = mkdtempSync(join(tmpdir(), "gatehouse-web-"));
  mkdirSync(join(root, "assets"));
  mkdirSync(join(root, ".vite"));
  writeFileSync(join(root, "index.html"), INDEX);
  writeFileSync(join(root, "assets/app-abc123.js"), SCRIPT);
  writeFileSync(join(root, "assets/logo.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4]));
  writeFileSync(join(root, ".vite/manifest.json"), "{}");
  if (withCopies) {
    // As the web build writes them (web/vite.config.ts); a marker proves these bytes, not fresh ones, are sent.
    writeFileSync(join(root, "assets/app-abc123.js.br"), Buffer.from("precompressed br"));
    writeFileSync(join(root, "assets/app-abc123.js.gz"), gzipSync(Buffer.from("precompressed gzip")));
  }
  return root;
}

const get = (app: WebApp, path: string, headers: Record<string, string> = {}, method = "GET") =>
  app.serve(new Request(`http://localhost${path}`, { method, headers }))!;

const bytes = async (response: Response) => Buffer.from(await response.arrayBuffer());

describe("web app: compressed static files", () => {
  const roots: string[] = [];
  afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));
  const load = (withCopies: boolean) => {
    const root = makeRoot(withCopies);
    roots.push(root);
    return loadWebApp(root)!;
  };

  it("sends Brotli or gzip as Accept-Encoding asks, with Vary, and the file as it is otherwise", async () => {
    const app = load(false);
    const br = get(app, "/assets/app-abc123.js", { "accept-encoding": "gzip, deflate, br, zstd" });
    expect(br.status).toBe(200);
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(br.headers.get("vary")).toBe("accept-encoding");
    expect(br.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(br.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const brBody = await bytes(br);
    expect(brBody.length).toBeLessThan(SCRIPT.length / 2);
    expect(brotliDecompressSync(brBody).toString()).toBe(SCRIPT);
    expect(br.headers.get("content-length")).toBe(String(brBody.length));

    const gzip = get(app, "/assets/app-abc123.js", { "accept-encoding": "gzip" });
    expect(gzip.headers.get("content-encoding")).toBe("gzip");
    expect(gunzipSync(await bytes(gzip)).toString()).toBe(SCRIPT);

    const plain = get(app, "/assets/app-abc123.js");
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.headers.get("vary")).toBe("accept-encoding");
    expect((await bytes(plain)).toString()).toBe(SCRIPT);

    // Each encoding is its own representation, so each has its own ETag.
    expect(new Set([br, gzip, plain].map((response) => response.headers.get("etag"))).size).toBe(3);
  });

  it("weighs the codings: q=0 refuses one, * stands for the others, identity;q=0 still gets the smaller one", async () => {
    const app = load(false);
    const encodingOf = (accept: string) => get(app, "/assets/app-abc123.js", { "accept-encoding": accept }).headers.get("content-encoding");
    expect(encodingOf("br;q=0, gzip")).toBe("gzip");
    expect(encodingOf("gzip;q=1.0, br;q=0.5")).toBe("gzip");
    expect(encodingOf("*")).toBe("br");
    expect(encodingOf("br;q=0, gzip;q=0")).toBeNull();
    expect(encodingOf("identity")).toBeNull();
    expect(chooseEncoding("identity;q=0, gzip;q=0.1", ["br", "gzip"])).toBe("gzip");
    expect(chooseEncoding("x-gzip", ["br", "gzip"])).toBe("gzip");
    expect(chooseEncoding("br", [])).toBe("identity");
  });

  it("sends the .br and .gz copies the build wrote beside a file", async () => {
    const app = load(true);
    const br = get(app, "/assets/app-abc123.js", { "accept-encoding": "br" });
    expect((await bytes(br)).toString()).toBe("precompressed br");
    const gzip = get(app, "/assets/app-abc123.js", { "accept-encoding": "gzip" });
    expect(gunzipSync(await bytes(gzip)).toString()).toBe("precompressed gzip");
    // The copies are variants of their file, not files of their own; build records are not served.
    expect(get(app, "/assets/app-abc123.js.br")).toBeNull();
    expect(get(app, "/.vite/manifest.json")).toBeNull();
  });

  it("answers If-None-Match with 304 per encoding, and HEAD with the length and no body", async () => {
    const app = load(false);
    const first = get(app, "/assets/app-abc123.js", { "accept-encoding": "br" });
    const etag = first.headers.get("etag")!;
    const again = get(app, "/assets/app-abc123.js", { "accept-encoding": "br", "if-none-match": `W/${etag}, "other"` });
    expect(again.status).toBe(304);
    expect(again.headers.get("vary")).toBe("accept-encoding");
    expect(await again.text()).toBe("");
    // The Brotli ETag does not validate the gzip representation.
    expect(get(app, "/assets/app-abc123.js", { "accept-encoding": "gzip", "if-none-match": etag }).status).toBe(200);

    const head = get(app, "/assets/app-abc123.js", { "accept-encoding": "br" }, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(first.headers.get("content-length"));
    expect(head.headers.get("content-encoding")).toBe("br");
    expect(await head.text()).toBe("");
  });

  it("sends pages (index.html) compressed with the security headers and no-cache; leaves images and missing assets alone", async () => {
    const app = load(false);
    const page = get(app, "/sign-in", { "accept-encoding": "br" });
    expect(page.headers.get("content-encoding")).toBe("br");
    expect(brotliDecompressSync(await bytes(page)).toString()).toBe(INDEX);
    expect(page.headers.get("cache-control")).toBe("no-cache");
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");

    const image = get(app, "/assets/logo.png", { "accept-encoding": "br" });
    expect(image.headers.get("content-encoding")).toBeNull();
    expect(image.headers.get("vary")).toBeNull();
    expect(get(app, "/assets/missing.js")).toBeNull();
  });
});

describe("web app over node:http", () => {
  let root: string;
  let gatehouse: Gatehouse;
  let running: RunningServer;

  beforeAll(async () => {
    root = makeRoot(false);
    gatehouse = createGatehouse(
      { secret: TEST_SECRET, logger: { level: "silent" }, database: { url: "sqlite://" + join(root, "gatehouse.db") } },
      { nodeEnv: "test", logger: createLogger("silent") },
    );
    await gatehouse.migrate();
    running = await serveGatehouse(gatehouse, { port: 0, hostname: "127.0.0.1", webApp: loadWebApp(root) });
  });
  afterAll(async () => {
    await running?.close();
    await gatehouse?.close();
    rmSync(root, { recursive: true, force: true });
  });

  /** A raw request: fetch would decompress the body and take the header away. */
  const raw = (method: string, path: string, headers: Record<string, string>) =>
    new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
      const req = httpRequest({ host: "127.0.0.1", port: running.port, method, path, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.on("error", reject);
      req.end();
    });

  it("sends the bytes of the chosen encoding with their length, and HEAD the same length without them", async () => {
    const gzip = await raw("GET", "/assets/app-abc123.js", { "accept-encoding": "gzip" });
    expect(gzip.status).toBe(200);
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gzip.headers["vary"]).toBe("accept-encoding");
    expect(gunzipSync(gzip.body).toString()).toBe(SCRIPT);
    expect(gzip.headers["content-length"]).toBe(String(gzip.body.length));

    const br = await raw("GET", "/assets/app-abc123.js", { "accept-encoding": "gzip, deflate, br" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(br.body).toString()).toBe(SCRIPT);

    const head = await raw("HEAD", "/assets/app-abc123.js", { "accept-encoding": "br" });
    expect(head.status).toBe(200);
    expect(head.headers["content-length"]).toBe(String(br.body.length));
    expect(head.body.length).toBe(0);

    const revalidated = await raw("GET", "/assets/app-abc123.js", { "accept-encoding": "br", "if-none-match": String(br.headers["etag"]) });
    expect(revalidated.status).toBe(304);
    expect(revalidated.body.length).toBe(0);
  });
});
