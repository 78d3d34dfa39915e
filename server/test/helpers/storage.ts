import { generateId } from "../../src/crypto/random.js";
import { createStores, migrateDatabase, type Stores } from "../../src/modules.js";
import { openDatabase, type DatabaseHandle } from "../../src/storage/index.js";
import type { User } from "../../src/storage/models.js";
import { createTestDatabase, type DialectName } from "./databases.js";

/** A fresh, migrated database of one dialect with its repositories, for the storage conformance suites. */
export interface MigratedStorage {
  handle: DatabaseHandle;
  stores: Stores;
  close(): Promise<void>;
}

export async function openMigratedStorage(dialect: DialectName): Promise<MigratedStorage> {
  const testDb = await createTestDatabase(dialect);
  const handle = openDatabase({ url: testDb.url, schema: testDb.schema });
  await migrateDatabase(handle);
  return {
    handle,
    stores: createStores(handle.db, { dialect: handle.dialect }),
    async close() {
      await handle.close();
      await testDb.drop();
    },
  };
}

/** A user row with every column set, a unique address, and the given changes. */
export function userRecord(createdAt: Date, overrides: Partial<User> = {}): User {
  return {
    id: generateId(),
    name: "Grace",
    email: `${generateId().toLowerCase()}@example.com`,
    emailVerified: false,
    image: null,
    createdAt,
    updatedAt: createdAt,
    username: null,
    displayUsername: null,
    role: "user",
    banned: false,
    banReason: null,
    banExpires: null,
    lang: null,
    twoFactorEnabled: false,
    ...overrides,
  };
}
