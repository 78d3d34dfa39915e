import type { Language } from "./language.js";

export type DurationUnit = "minute" | "hour" | "day";

type Forms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

/**
 * Each language's words for a link's life, in the form the catalog's `expires` sentence needs, one per CLDR
 * plural category. The platform's unit formatter (Intl.NumberFormat style "unit") only knows the nominative,
 * which is wrong after "ważny przez" (Polish: "1 godzinę", not "1 godzina") and after "действительна" /
 * "дійсне" (Russian and Ukrainian: "1 минуту", "21 годину"): the accusative. The category comes from
 * Intl.PluralRules, so "2 godziny", "5 godzin", "22 godziny" and "21 godzin" follow the language's own rules.
 * `other` is the fraction form in the Slavic languages (never reached: amounts are whole) and the plural elsewhere.
 */
const WORDS: Record<Language, Record<DurationUnit, Forms>> = {
  en: {
    minute: { one: "minute", other: "minutes" },
    hour: { one: "hour", other: "hours" },
    day: { one: "day", other: "days" },
  },
  de: {
    minute: { one: "Minute", other: "Minuten" },
    hour: { one: "Stunde", other: "Stunden" },
    day: { one: "Tag", other: "Tage" },
  },
  es: {
    minute: { one: "minuto", other: "minutos" },
    hour: { one: "hora", other: "horas" },
    day: { one: "día", other: "días" },
  },
  fr: {
    minute: { one: "minute", other: "minutes" },
    hour: { one: "heure", other: "heures" },
    day: { one: "jour", other: "jours" },
  },
  pl: {
    minute: { one: "minutę", few: "minuty", many: "minut", other: "minuty" },
    hour: { one: "godzinę", few: "godziny", many: "godzin", other: "godziny" },
    day: { one: "dzień", few: "dni", many: "dni", other: "dnia" },
  },
  ru: {
    minute: { one: "минуту", few: "минуты", many: "минут", other: "минуты" },
    hour: { one: "час", few: "часа", many: "часов", other: "часа" },
    day: { one: "день", few: "дня", many: "дней", other: "дня" },
  },
  uk: {
    minute: { one: "хвилину", few: "хвилини", many: "хвилин", other: "хвилини" },
    hour: { one: "годину", few: "години", many: "годин", other: "години" },
    day: { one: "день", few: "дні", many: "днів", other: "дня" },
  },
  // Turkish nouns stay singular after a number.
  tr: {
    minute: { other: "dakika" },
    hour: { other: "saat" },
    day: { other: "gün" },
  },
};

const PLURAL_RULES = new Map<Language, Intl.PluralRules>();
const NUMBER_FORMATS = new Map<Language, Intl.NumberFormat>();

/** "1 godzinę", "22 godziny", "21 минуту", "2 Tage": a whole amount of one unit, for the `expires` sentence. */
export function formatAmount(amount: number, unit: DurationUnit, language: Language): string {
  let rules = PLURAL_RULES.get(language);
  let numbers = NUMBER_FORMATS.get(language);
  if (!rules || !numbers) {
    // Building these loads ICU data (about a millisecond each); there are at most two per language.
    rules = new Intl.PluralRules(language);
    numbers = new Intl.NumberFormat(language);
    PLURAL_RULES.set(language, rules);
    NUMBER_FORMATS.set(language, numbers);
  }
  const forms = WORDS[language][unit];
  return `${numbers.format(amount)} ${forms[rules.select(amount)] ?? forms.other}`;
}

/**
 * A link's life in seconds as the mail says it: whole days from two days up, else whole hours, else minutes
 * (at least one, rounded).
 */
export function formatDuration(seconds: number, language: Language): string {
  if (seconds % 86_400 === 0 && seconds >= 172_800) return formatAmount(seconds / 86_400, "day", language);
  if (seconds % 3600 === 0 && seconds > 0) return formatAmount(seconds / 3600, "hour", language);
  return formatAmount(Math.max(1, Math.round(seconds / 60)), "minute", language);
}
