import pg from "pg";
import { Redis } from "ioredis";
import { POSTGRES_URL, REDIS_URL } from "./helpers/databases.js";

/** The suite runs on the machine's PostgreSQL and Redis; without them it fails and says why. */
export default async function setup(): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    await client.query("select 1");
  } catch (error) {
    throw new Error(
      `PostgreSQL is unreachable at ${POSTGRES_URL} (${(error as Error).message}). ` +
        "The storage suite runs on SQLite and PostgreSQL; start PostgreSQL or set TEST_POSTGRES_URL.",
    );
  } finally {
    await client.end().catch(() => undefined);
  }
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 3_000 });
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    throw new Error(
      `Redis is unreachable at ${REDIS_URL} (${(error as Error).message}). Start Redis or set TEST_REDIS_URL.`,
    );
  } finally {
    redis.disconnect();
  }
}
