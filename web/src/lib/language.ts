import { i18n } from "../i18n";
import { isLanguage, LANGUAGE_STORAGE_KEY, type Language } from "../i18n/languages";
import { authClient } from "./auth-client";

function remember(language: Language): void {
  try {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Storage refused (private mode, quota): the choice lasts until the page is closed.
  }
}

/** The language the app shows now, as one of ours. */
export function currentLanguage(): Language {
  return isLanguage(i18n.language) ? i18n.language : "en";
}

/**
 * Switches the app to `language` and remembers it on this device. When signed in it is also saved on the
 * account (update-user `lang`), so the service writes that user's mail in it too. Resolves to false when
 * that save failed; the app has switched all the same.
 */
export async function chooseLanguage(language: Language): Promise<boolean> {
  remember(language);
  await i18n.changeLanguage(language);
  const user = authClient.$session.get().data?.user;
  if (!user || user.lang === language) return true;
  const { error } = await authClient.updateUser({ lang: language });
  return error === null;
}

/**
 * Follows the signed-in user's saved language: whenever a user (a different one than before) appears in the
 * session, their saved language, if any, replaces the one the app started with. Later changes of the same
 * user's `lang` are the app's own saves, so they are not applied again (that could undo a newer choice).
 */
export function followSavedLanguage(): () => void {
  let lastUserId: string | null = null;
  return authClient.$session.subscribe(({ data }) => {
    const user = data?.user ?? null;
    if (!user || user.id === lastUserId) {
      if (!user) lastUserId = null;
      return;
    }
    lastUserId = user.id;
    if (isLanguage(user.lang) && user.lang !== i18n.language) {
      remember(user.lang);
      void i18n.changeLanguage(user.lang);
    }
  });
}
