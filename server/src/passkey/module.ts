import { defineModule } from "../gatehouse-module.js";
import { generatePasskeyAuthenticationOptions, verifyPasskeyAuthentication } from "./authentication-routes.js";
import { deletePasskey, listPasskeys, updatePasskey } from "./management-routes.js";
import { PASSKEY_MESSAGES } from "./messages.js";
import * as passkeyTables from "./migrations/0011-passkey.js";
import { generatePasskeyRegistrationOptions, verifyPasskeyRegistration } from "./registration-routes.js";
import { passkeyRepositories } from "./store/index.js";
import { PASSKEY_TABLE_SPECS } from "./tables.js";

/**
 * Passkeys (WebAuthn; API-NOTES-PLUGINS.md section 3, README.md "Passkeys"): register one from a fresh session, list,
 * rename and delete them, and sign in with one, discoverable or listed. On unless `passkey.enabled` is false.
 */
export const passkeyModule = defineModule({
  name: "passkey",
  enabled: (config) => config.passkey.enabled,
  endpoints: {
    generatePasskeyRegistrationOptions,
    verifyPasskeyRegistration,
    generatePasskeyAuthenticationOptions,
    verifyPasskeyAuthentication,
    listPasskeys,
    updatePasskey,
    deletePasskey,
  },
  migrations: { "0011-passkey": passkeyTables },
  tables: PASSKEY_TABLE_SPECS,
  repositories: passkeyRepositories,
  errors: PASSKEY_MESSAGES,
  // The foreign keys cascade on a database this service made; one Better Auth made may not, so they go here first.
  async beforeUserRemoved(stores, userId) {
    return { passkeysDeleted: await stores.passkeys.deleteUserPasskeys(userId) };
  },
  // Someone proved the mailbox of an unverified account: the passkeys its previous holder registered go with their
  // password, and so does the user handle (the new owner's authenticators get another one).
  async onCredentialsReset(stores, userId, reason) {
    if (reason === "mailbox-proven") await stores.passkeys.deleteUserPasskeys(userId);
  },
});
