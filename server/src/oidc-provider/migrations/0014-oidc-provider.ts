import type { Kysely } from "kysely";
import type { Dialect } from "../../storage/database.js";
import { columnTypes } from "../../storage/migrations/types.js";

/**
 * The OpenID Provider's tables (oidc-provider/tables.ts): its clients, what oidc-provider stores (tokens, codes,
 * grants, sessions, interactions) and its signing keys. No foreign key to `user`: a user's grants and tokens are
 * removed by the module's beforeUserRemoved, in the removal's transaction.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .createTable("oidcClient")
    .ifNotExists()
    .addColumn("clientId", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("secretHash", "text")
    .addColumn("secretCreatedAt", t.date)
    .addColumn("redirectURLs", "text", (c) => c.notNull())
    .addColumn("postLogoutRedirectURLs", "text", (c) => c.notNull())
    .addColumn("scopes", "text", (c) => c.notNull())
    .addColumn("grantTypes", "text", (c) => c.notNull())
    .addColumn("audience", "text", (c) => c.notNull())
    .addColumn("skipConsent", t.bool, (c) => c.notNull())
    .addColumn("accessTokenFormat", "text", (c) => c.notNull())
    .addColumn("signingAlg", "text", (c) => c.notNull())
    .addColumn("logoUri", "text")
    .addColumn("clientUri", "text")
    .addColumn("policyUri", "text")
    .addColumn("tosUri", "text")
    .addColumn("disabled", t.bool, (c) => c.notNull())
    .addColumn("source", "text", (c) => c.notNull())
    .addColumn("createdAt", t.date, (c) => c.notNull())
    .addColumn("updatedAt", t.date, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("oidcPayload")
    .ifNotExists()
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("model", "text", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("grantId", "text")
    .addColumn("uid", "text")
    .addColumn("accountId", "text")
    .addColumn("clientId", "text")
    .addColumn("expiresAt", t.date)
    .addColumn("consumedAt", t.date)
    .execute();
  await db.schema.createIndex("oidcPayload_grantId_idx").ifNotExists().on("oidcPayload").column("grantId").execute();
  await db.schema.createIndex("oidcPayload_uid_idx").ifNotExists().on("oidcPayload").column("uid").execute();
  await db.schema
    .createIndex("oidcPayload_accountId_model_idx")
    .ifNotExists()
    .on("oidcPayload")
    .columns(["accountId", "model"])
    .execute();
  await db.schema.createIndex("oidcPayload_clientId_idx").ifNotExists().on("oidcPayload").column("clientId").execute();
  await db.schema.createIndex("oidcPayload_expiresAt_idx").ifNotExists().on("oidcPayload").column("expiresAt").execute();

  await db.schema
    .createTable("oidcSigningKey")
    .ifNotExists()
    .addColumn("kid", "text", (c) => c.primaryKey())
    .addColumn("alg", "text", (c) => c.notNull())
    .addColumn("publicKey", "text", (c) => c.notNull())
    .addColumn("privateKey", "text", (c) => c.notNull())
    .addColumn("createdAt", t.date, (c) => c.notNull())
    .addColumn("retiredAt", t.date)
    .addColumn("expiresAt", t.date)
    .execute();
}
