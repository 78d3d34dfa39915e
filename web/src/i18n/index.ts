import i18n from "i18next";
import { initReactI18next } from "react-i18next";
import { de } from "./de";
import { en } from "./en";
import { es } from "./es";
import { fr } from "./fr";
import { initialLanguage, LANGUAGE_STORAGE_KEY } from "./languages";
import { pl } from "./pl";
import { ru } from "./ru";
import { tr } from "./tr";
import { uk } from "./uk";

/** The languages the app ships; add a locale file beside en.ts, list it here and in languages.ts. */
export const resources = {
  de: { translation: de },
  en: { translation: en },
  es: { translation: es },
  fr: { translation: fr },
  pl: { translation: pl },
  ru: { translation: ru },
  tr: { translation: tr },
  uk: { translation: uk },
} as const;

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

void i18n.use(initReactI18next).init({
  resources,
  lng: initialLanguage(readRememberedLanguage(), navigator.languages ?? [navigator.language]),
  fallbackLng: "en",
  supportedLngs: Object.keys(resources),
  // React already escapes interpolated values.
  interpolation: { escapeValue: false },
  returnNull: false,
  // Resources are bundled, so the first render can already translate.
  initAsync: false,
});
document.documentElement.lang = i18n.language;

export { i18n };
