import { createGatehouse, type Gatehouse, type GatehouseOptions } from "../../src/index.js";
import type { CreateGatehouseContext } from "../../src/index.js";
import { createLogger } from "../../src/logger.js";
import { serveGatehouse } from "../../src/node-server.js";
import { createTestDatabase, type DialectName, type TestDatabase } from "./databases.js";

export const TEST_SECRET = "test-secret-that-is-long-enough-for-production-use";

export interface TestServer {
  url: string;
  base: string;
  gatehouse: Gatehouse;
  database: TestDatabase;
  close(): Promise<void>;
}

type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? DeepPartial<T[K]> : T[K] };

/** Starts the service on a real socket (port 0) over a fresh database of the given dialect. */
export async function startTestServer(
  dialect: DialectName,
  options: DeepPartial<GatehouseOptions> = {},
  context: CreateGatehouseContext & { database?: TestDatabase } = {},
): Promise<TestServer> {
  const database = context.database ?? (await createTestDatabase(dialect));
  const gatehouse = createGatehouse(
    {
      secret: TEST_SECRET,
      logger: { level: "silent" },
      ...options,
      database: { url: database.url, schema: database.schema, ...(options.database ?? {}) },
    } as GatehouseOptions,
    { nodeEnv: "test", logger: createLogger("silent"), ...context },
  );
  await gatehouse.migrate();
  const running = await serveGatehouse(gatehouse, { port: 0, hostname: "127.0.0.1" });
  const port = running.port;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    base: `${url}${gatehouse.config.basePath}`,
    gatehouse,
    database,
    async close() {
      running.server.closeAllConnections();
      await running.close();
      await gatehouse.close();
      if (!context.database) await database.drop();
    },
  };
}
