/** A day in the page's language ("21 Nov 2026"). */
export function formatDate(value: string, language: string): string {
  return new Intl.DateTimeFormat(language, { day: "numeric", month: "short", year: "numeric" }).format(new Date(value));
}
