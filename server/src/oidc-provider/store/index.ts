import type { Kysely } from "kysely";
import type { Dialect } from "../../storage/database.js";
import type { OidcDatabase } from "../tables.js";
import { oidcClientStore } from "./clients.js";
import { oidcDirectoryStore } from "./directory.js";
import { oidcSigningKeyStore } from "./keys.js";
import { oidcPayloadStore } from "./payloads.js";

export type * from "./models.js";
export type { OrganizationClaim } from "./directory.js";

/** The OpenID Provider's repositories over one connection (or one transaction). */
export function oidcRepositories(db: Kysely<OidcDatabase>, dialect: Dialect) {
  return {
    oidcClients: oidcClientStore(db, dialect),
    oidcPayloads: oidcPayloadStore(db, dialect),
    oidcSigningKeys: oidcSigningKeyStore(db),
    oidcDirectory: oidcDirectoryStore(db),
  };
}

export type OidcRepositories = ReturnType<typeof oidcRepositories>;
