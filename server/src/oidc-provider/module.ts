import { defineModule } from "../gatehouse-module.js";
import {
  adminCreateOidcClient,
  adminDeleteOidcClient,
  adminGetOidcClient,
  adminListOidcClients,
  adminListUserOidcGrants,
  adminRevokeUserOidcGrant,
  adminRotateOidcClientSecret,
  adminUpdateOidcClient,
} from "./admin-routes.js";
import { listOidcGrants, revokeOidcGrant } from "./grant-routes.js";
import { consentOidcInteraction, getOidcInteraction, getOidcInteractionClient, oidcInteraction } from "./interaction-routes.js";
import { getSessionJwt } from "./jwt-routes.js";
import { OIDC_MESSAGES } from "./messages.js";
import * as oidcTables from "./migrations/0014-oidc-provider.js";
import * as oidcUidPartialIndex from "./migrations/0019-oidc-uid-partial-index.js";
import * as oidcGrantLookupIndex from "./migrations/0020-oidc-grant-lookup-index.js";
import { createOidcMount } from "./mount.js";
import { oidcRepositories } from "./store/index.js";
import { OIDC_TABLE_SPECS } from "./tables.js";

/**
 * The OpenID Provider (README "OpenID Provider"): Gatehouse as the OpenID Connect provider of the team's other
 * applications, built on oidc-provider (service.ts) with its endpoints mounted under the API's base path
 * (mount.ts), Gatehouse's sessions for the sign-in, the web app's pages for sign-in and consent, and the JSON
 * routes for consent, connected applications and administration. On unless `oidcProvider.enabled` is false; with
 * no client registered it issues nothing.
 */
export const oidcProviderModule = defineModule({
  name: "oidc-provider",
  enabled: (config) => config.oidcProvider.enabled,
  endpoints: {
    oidcInteraction,
    getOidcInteraction,
    getOidcInteractionClient,
    consentOidcInteraction,
    listOidcGrants,
    revokeOidcGrant,
    getSessionJwt,
    adminListOidcClients,
    adminGetOidcClient,
    adminCreateOidcClient,
    adminUpdateOidcClient,
    adminRotateOidcClientSecret,
    adminDeleteOidcClient,
    adminListUserOidcGrants,
    adminRevokeUserOidcGrant,
  },
  migrations: {
    "0014-oidc-provider": oidcTables,
    "0019-oidc-uid-partial-index": oidcUidPartialIndex,
    "0020-oidc-grant-lookup-index": oidcGrantLookupIndex,
  },
  tables: OIDC_TABLE_SPECS,
  repositories: oidcRepositories,
  errors: OIDC_MESSAGES,
  mount: (runtime) => createOidcMount(runtime),
  // A user's grants, tokens and provider sessions go with them.
  async beforeUserRemoved(stores, userId) {
    return { oidcEntriesDeleted: await stores.oidcPayloads.deleteUserPayloads(userId) };
  },
  // A password change and "sign out everywhere" end the tokens the user's applications hold (they sign the user in
  // again; the consents stay). Someone proving the mailbox of an unverified account takes it over: the previous
  // holder's consents go too.
  async onCredentialsReset(stores, userId, reason) {
    if (reason === "mailbox-proven") await stores.oidcPayloads.deleteUserPayloads(userId);
    else await stores.oidcPayloads.deleteUserTokens(userId);
  },
});
