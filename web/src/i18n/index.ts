import i18n, { type BackendModule } from "i18next";
import { initReactI18next } from "react-i18next";
import type { Messages } from "./en";
import { initialLanguage, isLanguage, LANGUAGE_STORAGE_KEY, LANGUAGES, type Language } from "./languages";

/**
 * The languages the app ships, each a chunk of its own that is fetched only when that language is chosen (issue #13:
 * a visitor downloads one language, not eight). Add a locale file beside en.ts, list it here and in languages.ts.
 */
const LOCALES: Record<Language, () => Promise<Messages>> = {
  de: () => import("./de").then((module) => module.de),
  en: () => import("./en").then((module) => module.en),
  es: () => import("./es").then((module) => module.es),
  fr: () => import("./fr").then((module) => module.fr),
  pl: () => import("./pl").then((module) => module.pl),
  ru: () => import("./ru").then((module) => module.ru),
  tr: () => import("./tr").then((module) => module.tr),
  uk: () => import("./uk").then((module) => module.uk),
};

/** i18next loads a language through its backend before switching to it, so no page ever shows half a language. */
const localeChunks: BackendModule = {
  type: "backend",
  callbackApi: false,
  init() {},
  read(language: string) {
    return isLanguage(language) ? LOCALES[language]() : Promise.reject(new Error(`No messages for "${language}"`));
  },
};

/** localStorage can be unavailable (private modes, blocked storage); the app then simply does not remember. */
export function readRememberedLanguage(): string | null {
  try {
    return window.localStorage.getItem(LANGUAGE_STORAGE_KEY);
  } catch {
    return null;
  }
}

// Screen readers pick their voice from <html lang>, so it follows the app's language.
i18n.on("languageChanged", (language) => {
  document.documentElement.lang = language;
});

/**
 * Resolves once the first language's messages are in: main.tsx renders only then, so the first render is already
 * in the visitor's language (no flash of English).
 */
export const i18nReady: Promise<unknown> = i18n
  .use(localeChunks)
  .use(initReactI18next)
  .init({
    lng: initialLanguage(readRememberedLanguage(), navigator.languages ?? [navigator.language]),
    // No fallback to fetch beside the chosen language: every locale is typed `Messages` (en.ts), so none lacks a key
    // (and i18n/messages.test.ts checks that none is empty).
    fallbackLng: false,
    supportedLngs: LANGUAGES.map((language) => language.code),
    // React already escapes interpolated values.
    interpolation: { escapeValue: false },
    returnNull: false,
  })
  .then(() => {
    document.documentElement.lang = i18n.language;
  });

export { i18n };
