import type { CoreTables } from "./schema.js";

/**
 * Every table, column and plain index the service needs: the core tables' here, each module's in its folder
 * (organization/tables.ts), put together by composeSchema. The versioned migrations create the tables of a new
 * database; the reconcile step (reconcile.ts) compares this description with what an existing database holds (one
 * written by an earlier version, or by another implementation of this API such as Better Auth, whose plugins add
 * columns to the core tables) and adds what is missing.
 *
 * Logical types, stored as the other tools of this API store them:
 * - text: `text` on both dialects;
 * - date: ISO-8601 text in a column declared `date` on SQLite, `timestamptz` on PostgreSQL;
 * - bool: integer 0/1 on SQLite, `boolean` on PostgreSQL;
 * - integer: `integer`.
 */
export type LogicalType = "text" | "date" | "bool" | "integer";

export interface ColumnSpec {
  type: LogicalType;
  /** NOT NULL. A missing NOT NULL column can be added only when it has a default. */
  notNull?: boolean;
  /** The value a column added to a table with rows takes (and the column's default from then on). */
  default?: number;
}

export interface IndexSpec {
  name: string;
  columns: readonly string[];
  unique?: boolean;
  /**
   * The index holds only the rows whose first column is not null (`where "column" is not null`): for a column most
   * rows leave empty, whose lookups always name a value (`column = ?` implies `is not null`, which both databases'
   * planners see, so such a query still uses the index). Each row inserted without a value then writes no index
   * entry, which on SQLite is one page less in the commit.
   */
  onlyNotNull?: boolean;
}

export interface TableSpec<Columns extends string = string> {
  columns: Record<Columns, ColumnSpec>;
  /** Plain indexes on columns; an existing index on the same columns (under any name) counts as present. */
  indexes: readonly IndexSpec[];
}

/** A part of the schema keyed by Kysely table interfaces, so a column added there and not here fails to compile. */
export type TableSpecs<Tables> = { [T in keyof Tables & string]: TableSpec<keyof Tables[T] & string> };

/** The whole expected schema, by table name. */
export type SchemaSpec = Record<string, TableSpec>;

/** Columns and indexes a module adds to a table of another part (as Better Auth's admin plugin adds to user). */
export type TableAdditions = Record<string, { columns?: Record<string, ColumnSpec>; indexes?: readonly IndexSpec[] }>;

const text: ColumnSpec = { type: "text" };
const requiredText: ColumnSpec = { type: "text", notNull: true };
const date: ColumnSpec = { type: "date" };
const requiredDate: ColumnSpec = { type: "date", notNull: true };

/** The core tables, keyed by the table interfaces of schema.ts. */
export const CORE_TABLE_SPECS: TableSpecs<CoreTables> = {
  user: {
    columns: {
      id: requiredText,
      name: requiredText,
      email: requiredText,
      emailVerified: { type: "bool", notNull: true, default: 0 },
      image: text,
      createdAt: requiredDate,
      updatedAt: requiredDate,
      // username plugin
      username: text,
      displayUsername: text,
      // admin plugin
      role: text,
      banned: { type: "bool", default: 0 },
      banReason: text,
      banExpires: date,
      // Gatehouse's own: the language of the user's mail
      lang: text,
      // lastLoginMethod plugin (storeInDatabase): the method of the user's last sign-in
      lastLoginMethod: text,
      // twoFactor plugin (two-factor/): whether the user has a second factor
      twoFactorEnabled: { type: "bool", default: 0 },
    },
    indexes: [
      { name: "user_email_uidx", columns: ["email"], unique: true },
      { name: "user_username_uidx", columns: ["username"], unique: true },
      // The administrators' user list adds its indexes (admin/module.ts).
    ],
  },
  session: {
    columns: {
      id: requiredText,
      token: requiredText,
      userId: requiredText,
      expiresAt: requiredDate,
      ipAddress: text,
      userAgent: text,
      createdAt: requiredDate,
      updatedAt: requiredDate,
      // organization plugin (activeTeamId: with teams)
      activeOrganizationId: text,
      activeTeamId: text,
      // admin plugin
      impersonatedBy: text,
      // Gatehouse's own: how the session was signed in to (session/sign-in.ts)
      loginMethod: text,
      // Gatehouse's own: the factors the sign-in proved, comma-joined (session/sign-in.ts)
      factors: text,
    },
    indexes: [
      { name: "session_token_uidx", columns: ["token"], unique: true },
      { name: "session_userId_idx", columns: ["userId"] },
    ],
  },
  account: {
    columns: {
      id: requiredText,
      accountId: requiredText,
      providerId: requiredText,
      userId: requiredText,
      accessToken: text,
      refreshToken: text,
      idToken: text,
      accessTokenExpiresAt: date,
      refreshTokenExpiresAt: date,
      scope: text,
      password: text,
      createdAt: requiredDate,
      updatedAt: requiredDate,
    },
    indexes: [
      { name: "account_userId_idx", columns: ["userId"] },
      // One row per provider identity (migration 0005); Better Auth has no such index.
      { name: "account_providerId_accountId_uidx", columns: ["providerId", "accountId"], unique: true },
    ],
  },
  verification: {
    columns: {
      id: requiredText,
      identifier: requiredText,
      value: requiredText,
      expiresAt: requiredDate,
      createdAt: requiredDate,
      updatedAt: requiredDate,
    },
    indexes: [{ name: "verification_identifier_idx", columns: ["identifier"] }],
  },
};

/**
 * The expected schema of core and the modules: each table declared once (two parts declaring the same table is a
 * programming error), then each part's additions to tables of other parts.
 */
export function composeSchema(
  parts: readonly { tables: SchemaSpec | TableSpecs<object>; tableAdditions?: TableAdditions | undefined }[],
): SchemaSpec {
  const schema: SchemaSpec = {};
  for (const part of parts) {
    for (const [name, spec] of Object.entries(part.tables as SchemaSpec)) {
      if (schema[name]) throw new Error(`table "${name}" is declared twice`);
      schema[name] = { columns: { ...spec.columns }, indexes: [...spec.indexes] };
    }
  }
  for (const part of parts) {
    for (const [name, added] of Object.entries(part.tableAdditions ?? {})) {
      const spec = schema[name];
      if (!spec) throw new Error(`table "${name}" is extended but not declared`);
      spec.columns = { ...spec.columns, ...added.columns };
      spec.indexes = [...spec.indexes, ...(added.indexes ?? [])];
    }
  }
  return schema;
}
