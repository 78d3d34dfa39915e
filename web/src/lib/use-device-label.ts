import { useTranslation } from "react-i18next";
import { parseUserAgent } from "./user-agent";

/** Returns a function turning a User-Agent header into a short label such as "Chrome on Linux". */
export function useDeviceLabel(): (userAgent: string | null | undefined) => string {
  const { t } = useTranslation();
  return (userAgent) => {
    const { browser, os } = parseUserAgent(userAgent);
    if (!browser && !os) return t("device.unknownDevice");
    if (!os) return browser!;
    return t("device.label", { browser: browser ?? t("device.unknownBrowser"), os });
  };
}
