/*
 * Making an Intl formatter is the costly part of formatting (the first one of a kind loads the locale's data: about
 * 15 ms of main thread on a desktop, 60 ms on Lighthouse's phone), so each is made once per locale and options and
 * kept: a list of sessions or members formats every row with the same one.
 */
const formatters = new Map<string, Intl.RelativeTimeFormat | Intl.DateTimeFormat | Intl.NumberFormat>();

function cached<F extends Intl.RelativeTimeFormat | Intl.DateTimeFormat | Intl.NumberFormat>(key: string, make: () => F): F {
  let formatter = formatters.get(key) as F | undefined;
  if (!formatter) {
    formatter = make();
    formatters.set(key, formatter);
  }
  return formatter;
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

/**
 * "5 minutes ago", "yesterday", in the given locale; null under a minute so the caller can say "just now"
 * in its own words.
 */
export function formatRelativeTime(value: string | Date, locale: string, now: Date = new Date()): string | null {
  const seconds = Math.round((new Date(value).getTime() - now.getTime()) / 1000);
  const format = cached(`relative:${locale}`, () => new Intl.RelativeTimeFormat(locale, { numeric: "auto" }));
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
  }
  return null;
}

/** A calendar date such as "21 November 2025" (word order follows the locale). */
export function formatDate(value: string | Date, locale: string): string {
  return cached(`date:${locale}`, () => new Intl.DateTimeFormat(locale, { dateStyle: "long" })).format(new Date(value));
}

/** Date and time for tooltips and screen readers. */
export function formatDateTime(value: string | Date, locale: string): string {
  return cached(`date-time:${locale}`, () => new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" })).format(new Date(value));
}

/**
 * A wait such as "5 seconds", "15 minut", "2 минуты": whole seconds under a minute, else minutes rounded up, in the
 * locale's own plural forms (Intl), so no sentence needs a plural key.
 */
export function formatWait(seconds: number, locale: string): string {
  const [unit, amount] = seconds < 60 ? (["second", Math.max(1, Math.ceil(seconds))] as const) : (["minute", Math.ceil(seconds / 60)] as const);
  return cached(`wait:${unit}:${locale}`, () => new Intl.NumberFormat(locale, { style: "unit", unit, unitDisplay: "long" })).format(amount);
}

/** The day alone, short ("12 Mar 2026"): a log's time column shows it above the time. */
export function formatDay(value: string | Date, locale: string): string {
  return cached(`day:${locale}`, () => new Intl.DateTimeFormat(locale, { dateStyle: "medium" })).format(new Date(value));
}

/** The time of day to the second ("14:03:27"). */
export function formatClock(value: string | Date, locale: string): string {
  return cached(`clock:${locale}`, () => new Intl.DateTimeFormat(locale, { timeStyle: "medium" })).format(new Date(value));
}
