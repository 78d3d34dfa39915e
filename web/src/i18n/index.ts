import i18n from "i18next";
import { initReactI18next } from "react-i18next";
import { en } from "./en";

/** The languages the app ships; add a locale file beside en.ts and list it here. */
export const resources = { en: { translation: en } } as const;

// Screen readers pick their voice from <html lang>, so it follows the app's language.
i18n.on("languageChanged", (language) => {
  document.documentElement.lang = language;
});

void i18n.use(initReactI18next).init({
  resources,
  lng: "en",
  fallbackLng: "en",
  // React already escapes interpolated values.
  interpolation: { escapeValue: false },
  returnNull: false,
  // Resources are bundled, so the first render can already translate.
  initAsync: false,
});

export { i18n };
