import type { DbBool, DbDate } from "./schema.js";

/** Converts what either dialect returns into the one model the service uses. */
export const toDate = (value: DbDate): Date => (value instanceof Date ? value : new Date(value));
export const toDateOrNull = (value: DbDate | null | undefined): Date | null =>
  value === null || value === undefined ? null : toDate(value);
export const toBool = (value: DbBool | null | undefined): boolean => value === true || value === 1;

/** What is written: ISO text for dates (both dialects accept it), 0/1 for booleans. */
export const dbDate = (date: Date): string => date.toISOString();
export const dbBool = (value: boolean): number => (value ? 1 : 0);
