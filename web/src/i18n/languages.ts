/**
 * The app's languages: the eight of SPEC.md section 1, which the service also writes its mail in. Each is
 * listed by its own name (an endonym is the same in every language, so it is data, not a message), in the
 * order a switcher shows them: Latin script alphabetically, then Cyrillic.
 */
export const LANGUAGES = [
  { code: "de", name: "Deutsch" },
  { code: "en", name: "English" },
  { code: "es", name: "Español" },
  { code: "fr", name: "Français" },
  { code: "pl", name: "Polski" },
  { code: "tr", name: "Türkçe" },
  { code: "ru", name: "Русский" },
  { code: "uk", name: "Українська" },
] as const;

export type Language = (typeof LANGUAGES)[number]["code"];

export const DEFAULT_LANGUAGE: Language = "en";

/** Where the visitor's choice is remembered on this device. */
export const LANGUAGE_STORAGE_KEY = "gatehouse.language";

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && LANGUAGES.some((language) => language.code === value);
}

/** One of our languages for a tag such as "de-AT" or "pt-BR", or null when none fits. */
export function matchLanguage(tag: string | null | undefined): Language | null {
  const base = (tag ?? "").trim().toLowerCase().split(/[-_]/)[0];
  return isLanguage(base) ? base : null;
}

/**
 * The language to start in: the one remembered on this device, else the browser's first of ours, else
 * English. (Once the session is known, a signed-in user's saved language takes over: see lib/language.ts.)
 */
export function initialLanguage(remembered: string | null, browserLanguages: readonly string[]): Language {
  return matchLanguage(remembered) ?? browserLanguages.map(matchLanguage).find((found) => found !== null) ?? DEFAULT_LANGUAGE;
}
