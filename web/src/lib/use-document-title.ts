import { useEffect } from "react";
import { useTranslation } from "react-i18next";

/** Sets the tab title to "<page> · Gatehouse" while the page is shown. */
export function useDocumentTitle(page: string): void {
  const { t } = useTranslation();
  useEffect(() => {
    document.title = t("app.titleTemplate", { page });
  }, [page, t]);
}
