/** A list route's paging parameter: an opaque cursor, or a numeric offset. */
export type Cursor = string | number;

/** SPEC.md section 7: the paging parameter is a cursor that defaults to 0 (the first page). */
export const DEFAULT_CURSOR = 0;

/** The query of one page of a list: the given query plus `cursor`, which is 0 unless given. */
export function withCursor<Q extends object>(query: Q | undefined, cursor: Cursor = DEFAULT_CURSOR): Q & { cursor: Cursor } {
  return { ...(query ?? ({} as Q)), cursor };
}
