import type { CredentialsResetReason } from "../gatehouse-module.js";
import type { Runtime } from "../runtime.js";
import type { CoreStores } from "../storage/index.js";

/**
 * Tells every installed module that what proves the user's identity changed (GatehouseModule.onCredentialsReset):
 * call it with the stores of the transaction that makes the change, so the revocation commits with it.
 */
export async function resetModuleCredentials(
  runtime: Pick<Runtime, "config" | "modules">,
  stores: CoreStores,
  userId: string,
  reason: CredentialsResetReason,
): Promise<void> {
  for (const module of runtime.modules) await module.onCredentialsReset?.(stores as never, userId, reason, runtime.config);
}
