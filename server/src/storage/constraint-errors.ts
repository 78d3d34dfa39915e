/** Whether a write failed on a UNIQUE constraint (PostgreSQL 23505, SQLite SQLITE_CONSTRAINT_UNIQUE). */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | null;
  return (
    e?.code === "23505" ||
    e?.code === "SQLITE_CONSTRAINT_UNIQUE" ||
    e?.code === "SQLITE_CONSTRAINT_PRIMARYKEY" ||
    /UNIQUE constraint failed/.test(e?.message ?? "")
  );
}


/**
 * Whether a write failed on a FOREIGN KEY constraint (PostgreSQL 23503, SQLite SQLITE_CONSTRAINT_FOREIGNKEY): a row
 * it refers to (a user, an organization) was deleted while the request ran.
 */
export function isForeignKeyViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | null;
  return (
    e?.code === "23503" ||
    e?.code === "SQLITE_CONSTRAINT_FOREIGNKEY" ||
    /FOREIGN KEY constraint failed/.test(e?.message ?? "")
  );
}
