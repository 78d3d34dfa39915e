import type { Runtime } from "../runtime.js";
import { createStores } from "../storage/index.js";

/** Removes a user with their sessions and accounts, in one transaction. */
export async function removeUserAndData(runtime: Runtime, userId: string): Promise<void> {
  await runtime.database.db.transaction().execute(async (trx) => {
    const stores = createStores(trx);
    await stores.sessions.deleteUserSessions(userId);
    await stores.accounts.deleteUserAccounts(userId);
    await stores.users.deleteUser(userId);
  });
  runtime.logger.info({ userId }, "user deleted");
}
