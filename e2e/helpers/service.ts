import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createGatehouse, serveGatehouse, type Gatehouse, type GatehouseOptions, type RunningServer } from "../../server/src/index.js";
import { loadWebApp } from "../../server/src/web-app.js";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

export interface RunningService {
  /** The origin the browser talks to, e.g. http://127.0.0.1:41234 */
  url: string;
  /** The service itself, in-process: its API and storage, for setting up what no route offers (an administrator). */
  gatehouse: Gatehouse;
  close(): Promise<void>;
}

export interface ServiceOptions {
  /** Send mail to this SMTP server (e.g. `startTestSmtp().url`); without it, mail goes to the development outbox. */
  smtpUrl?: string;
  /** More service options, merged over the defaults here (for example `emailAndPassword`). */
  options?: Partial<GatehouseOptions>;
  /**
   * The host name of the service's URL; 127.0.0.1 unless given. Passkeys need a domain ("localhost"): WebAuthn
   * refuses an IP address as the relying party's id. The service listens on 127.0.0.1 either way.
   */
  host?: "127.0.0.1" | "localhost";
}

/** A port nobody listens on right now (the OS picks it), so the service can know its own URL before it starts. */
function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolvePort(port));
    });
  });
}

/**
 * Starts the real service in-process on a fresh SQLite file, serving the built web app (web/dist), as a
 * deployment would, with account deletion allowed. `npm test` builds the app first. The service knows its
 * own URL (`baseURL`), so links in mail point at it, as in production.
 */
export async function startService(settings: ServiceOptions = {}): Promise<RunningService> {
  const webApp = loadWebApp(join(REPO, "web/dist"));
  if (!webApp) throw new Error("web/dist/index.html is missing: run `npm run build -w @gatehouse/web` first");
  const dir = mkdtempSync(join(tmpdir(), "gatehouse-e2e-"));
  const extra = settings.options ?? {};

  // Another process could take the free port before the service does; then try another one.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const url = `http://${settings.host ?? "127.0.0.1"}:${port}`;
    const gatehouse = createGatehouse(
      {
        ...extra,
        baseURL: url,
        secret: "e2e-secret-that-is-long-enough-for-production-use",
        database: { url: "sqlite://" + join(dir, "e2e.db") },
        logger: { level: "silent" },
        // Off unless a journey turns it on (the rate-limit journey needs the real 429s).
        rateLimit: { enabled: false, ...extra.rateLimit },
        email: { ...extra.email, ...(settings.smtpUrl ? { smtpUrl: settings.smtpUrl } : {}) },
        user: { ...extra.user, deleteUser: { enabled: true, ...extra.user?.deleteUser } },
      },
      { nodeEnv: "test" },
    );
    await gatehouse.migrate();
    let running: RunningServer;
    try {
      running = await serveGatehouse(gatehouse, { port, hostname: "127.0.0.1", webApp });
    } catch (error) {
      await gatehouse.close();
      if ((error as NodeJS.ErrnoException).code === "EADDRINUSE" && attempt < 5) continue;
      rmSync(dir, { recursive: true, force: true });
      throw error;
    }
    return {
      url,
      gatehouse,
      async close() {
        running.server.closeAllConnections();
        await running.close();
        await gatehouse.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
}
