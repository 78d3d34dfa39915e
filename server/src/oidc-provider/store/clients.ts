import type { Kysely, Selectable } from "kysely";
import { dbBool, dbDate, toBool, toDate, toDateOrNull } from "../../storage/rows.js";
import type { Dialect } from "../../storage/database.js";
import { precompiled, type Param } from "../../storage/precompiled.js";
import type { OidcClientTable, OidcDatabase } from "../tables.js";
import type { OidcClient } from "./models.js";

const strings = (json: string): string[] => {
  try {
    const value = JSON.parse(json) as unknown;
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
  } catch {
    return [];
  }
};

function toClient(row: Selectable<OidcClientTable>): OidcClient {
  return {
    clientId: row.clientId,
    name: row.name,
    type: row.type as OidcClient["type"],
    secretHash: row.secretHash ?? null,
    secretCreatedAt: toDateOrNull(row.secretCreatedAt),
    redirectURLs: strings(row.redirectURLs),
    postLogoutRedirectURLs: strings(row.postLogoutRedirectURLs),
    scopes: strings(row.scopes),
    grantTypes: strings(row.grantTypes) as OidcClient["grantTypes"],
    audience: strings(row.audience),
    skipConsent: toBool(row.skipConsent),
    accessTokenFormat: row.accessTokenFormat === "jwt" ? "jwt" : "opaque",
    signingAlg: row.signingAlg === "ES256" ? "ES256" : "RS256",
    logoUri: row.logoUri ?? null,
    clientUri: row.clientUri ?? null,
    policyUri: row.policyUri ?? null,
    tosUri: row.tosUri ?? null,
    disabled: toBool(row.disabled),
    source: row.source === "registration" ? "registration" : "admin",
    createdAt: toDate(row.createdAt),
    updatedAt: toDate(row.updatedAt),
  };
}

function toRow(client: OidcClient) {
  return {
    clientId: client.clientId,
    name: client.name,
    type: client.type,
    secretHash: client.secretHash,
    secretCreatedAt: client.secretCreatedAt ? dbDate(client.secretCreatedAt) : null,
    redirectURLs: JSON.stringify(client.redirectURLs),
    postLogoutRedirectURLs: JSON.stringify(client.postLogoutRedirectURLs),
    scopes: JSON.stringify(client.scopes),
    grantTypes: JSON.stringify(client.grantTypes),
    audience: JSON.stringify(client.audience),
    skipConsent: dbBool(client.skipConsent),
    accessTokenFormat: client.accessTokenFormat,
    signingAlg: client.signingAlg,
    logoUri: client.logoUri,
    clientUri: client.clientUri,
    policyUri: client.policyUri,
    tosUri: client.tosUri,
    disabled: dbBool(client.disabled),
    source: client.source === "registration" ? "registration" : "admin",
    createdAt: dbDate(client.createdAt),
    updatedAt: dbDate(client.updatedAt),
  };
}

// Read on every token request of a client registered here (storage/precompiled.ts).
const findOne = precompiled((db: Kysely<OidcDatabase>, v: Param<{ clientId: string }>) =>
  db.selectFrom("oidcClient").selectAll().where("clientId", "=", v("clientId")),
);

export function oidcClientStore(db: Kysely<OidcDatabase>, dialect: Dialect) {
  return {
    async findClient(clientId: string): Promise<OidcClient | null> {
      const { rows } = await findOne(db, dialect, { clientId });
      return rows[0] ? toClient(rows[0]) : null;
    },

    /** Every stored client, oldest first. */
    async listClients(): Promise<OidcClient[]> {
      const rows = await db.selectFrom("oidcClient").selectAll().orderBy("createdAt").orderBy("clientId").execute();
      return rows.map(toClient);
    },

    /** Inserts a client; an id taken already fails on the primary key. */
    async insertClient(client: OidcClient): Promise<void> {
      await db.insertInto("oidcClient").values(toRow(client)).execute();
    },

    /** Inserts or replaces (dynamic registration's upsert). */
    async upsertClient(client: OidcClient): Promise<void> {
      const row = toRow(client);
      const { clientId: _id, createdAt: _created, ...changes } = row;
      await db
        .insertInto("oidcClient")
        .values(row)
        .onConflict((oc) => oc.column("clientId").doUpdateSet(changes))
        .execute();
    },

    /** Writes the client's settings (every column but its id and creation date); false when it is gone. */
    async updateClient(client: OidcClient): Promise<boolean> {
      const { clientId, createdAt: _created, ...changes } = toRow(client);
      const result = await db.updateTable("oidcClient").set(changes).where("clientId", "=", clientId).executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async deleteClient(clientId: string): Promise<boolean> {
      const result = await db.deleteFrom("oidcClient").where("clientId", "=", clientId).executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },
  };
}
