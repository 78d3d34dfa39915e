import { useTranslation } from "react-i18next";
import type { Messages } from "../i18n/en";

type RedirectErrorCode = keyof Messages["errorPage"]["codes"];

/** The codes the shown language has a sentence for (each language is loaded on its own, i18n/index.ts). */
function isKnownCode(code: string, messages: Messages | undefined): code is RedirectErrorCode {
  return messages !== undefined && Object.hasOwn(messages.errorPage.codes, code);
}

/** The human sentence for a redirect error code (SPEC.md section 8), or a generic one for codes we do not know. */
export function useErrorSentence(code: string): string {
  const { t, i18n } = useTranslation();
  const messages = i18n.getResourceBundle(i18n.language, "translation") as Messages | undefined;
  return isKnownCode(code, messages) ? t(`errorPage.codes.${code}`) : t("errorPage.unknown");
}
