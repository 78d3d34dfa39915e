import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createGatehouse, serveGatehouse } from "../../server/src/index.js";
import { loadWebApp } from "../../server/src/web-app.js";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

export interface RunningService {
  /** The origin the browser talks to, e.g. http://127.0.0.1:41234 */
  url: string;
  close(): Promise<void>;
}

/**
 * Starts the real service in-process on a fresh SQLite file, serving the built web app (web/dist), as a
 * deployment would. `npm test` builds the app first.
 */
export async function startService(): Promise<RunningService> {
  const webApp = loadWebApp(join(REPO, "web/dist"));
  if (!webApp) throw new Error("web/dist/index.html is missing: run `npm run build -w @gatehouse/web` first");
  const dir = mkdtempSync(join(tmpdir(), "gatehouse-e2e-"));
  const gatehouse = createGatehouse(
    {
      secret: "e2e-secret-that-is-long-enough-for-production-use",
      database: { url: "sqlite://" + join(dir, "e2e.db") },
      logger: { level: "silent" },
      rateLimit: { enabled: false },
    },
    { nodeEnv: "test" },
  );
  await gatehouse.migrate();
  const running = await serveGatehouse(gatehouse, { port: 0, hostname: "127.0.0.1", webApp });
  return {
    url: `http://127.0.0.1:${running.port}`,
    async close() {
      running.server.closeAllConnections();
      await running.close();
      await gatehouse.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
