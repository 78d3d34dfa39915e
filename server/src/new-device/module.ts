import { defineModule } from "../gatehouse-module.js";
import * as signInDeviceTable from "./migrations/0016-new-device.js";
import { NEW_DEVICE_MODULE } from "./sign-in-device.js";
import { newDeviceRepositories } from "./store/index.js";
import { NEW_DEVICE_TABLE_SPECS } from "./tables.js";

/**
 * New-device mail (README "New-device mail"): a sign-in from a browser the user has not signed in from before mails
 * them. No routes: its check runs at the end of every sign-in (session/sign-in.ts AFTER_SIGN_IN, sign-in-device.ts),
 * and its table remembers each user's browsers. `newDeviceEmail.enabled` (unset: on when mail has a server) turns
 * the check on.
 */
export const newDeviceModule = defineModule({
  name: NEW_DEVICE_MODULE,
  enabled: (config) => config.newDeviceEmail.enabled !== false,
  endpoints: {},
  migrations: { "0016-new-device": signInDeviceTable },
  tables: NEW_DEVICE_TABLE_SPECS,
  repositories: newDeviceRepositories,
  errors: {},
  /**
   * The owner of an address proving it on an account someone else had registered: the browsers that account knew
   * were its previous holder's. They are forgotten, so the owner's sign-in is taken as the first.
   */
  async onCredentialsReset(stores, userId, reason) {
    if (reason === "mailbox-proven") await stores.signInDevices.forgetUserDevices(userId);
  },
});
