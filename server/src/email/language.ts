/**
 * The eight languages of SPEC.md section 1, with the numeric ids it lists for them.
 * A message's language is the user's saved one, else the request's Accept-Language, else English.
 */
export const LANGUAGES = ["ru", "uk", "en", "es", "de", "pl", "fr", "tr"] as const;
export type Language = (typeof LANGUAGES)[number];

export const LANGUAGE_IDS: Readonly<Record<number, Language>> = {
  0: "ru",
  1: "uk",
  3: "en",
  4: "es",
  6: "de",
  15: "pl",
  16: "fr",
  82: "tr",
};

export const DEFAULT_LANGUAGE: Language = "en";

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

/** Accepts a language code ("de", "de-AT") or one of SPEC.md's numeric ids (6 or "6"). */
export function toLanguage(value: unknown): Language | null {
  if (typeof value === "number" || (typeof value === "string" && /^\d+$/.test(value))) {
    return LANGUAGE_IDS[Number(value)] ?? null;
  }
  if (typeof value !== "string") return null;
  const base = value.trim().toLowerCase().split(/[-_]/)[0];
  return isLanguage(base) ? base : null;
}

/** The best of our languages for an Accept-Language header, honouring q-values; null when none fits. */
export function fromAcceptLanguage(header: string | null | undefined): Language | null {
  if (!header) return null;
  const ranked = header
    .split(",")
    .slice(0, 20)
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      const quality = q ? Number(q.slice(2)) : 1;
      return { tag, quality: Number.isFinite(quality) ? quality : 0, index };
    })
    .filter((entry) => entry.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  for (const entry of ranked) {
    const language = toLanguage(entry.tag);
    if (language) return language;
  }
  return null;
}

export function pickLanguage(saved: string | null | undefined, acceptLanguage: string | null | undefined): Language {
  return toLanguage(saved) ?? fromAcceptLanguage(acceptLanguage) ?? DEFAULT_LANGUAGE;
}
