import { useTranslation } from "react-i18next";
import { en } from "../i18n/en";

type RedirectErrorCode = keyof typeof en.errorPage.codes;

function isKnownCode(code: string): code is RedirectErrorCode {
  return Object.hasOwn(en.errorPage.codes, code);
}

/** The human sentence for a redirect error code (SPEC.md section 8), or a generic one for codes we do not know. */
export function useErrorSentence(code: string): string {
  const { t } = useTranslation();
  return isKnownCode(code) ? t(`errorPage.codes.${code}`) : t("errorPage.unknown");
}
