import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { authClient } from "../lib/auth-client";
import { INTERACTION_PATH } from "../lib/return-to";
import { AppMark } from "./app-mark";
import styles from "./for-application.module.css";

/**
 * Names the application an OpenID Provider's authorization is for, on the pages a sign-in passes on its way there
 * (the sign-in pages, the second step): `path` is where the page goes on to, and only the provider's interaction
 * path names one. Its mark (logo or initial) beside the sentence; nothing while the name loads, or when the
 * authorization is unknown or over.
 */
export function ForApplication({ path }: { path: string | null }) {
  const { t } = useTranslation();
  const uid = path?.startsWith(INTERACTION_PATH) ? (path.slice(INTERACTION_PATH.length).split(/[/?#]/)[0] ?? "") : "";
  const [app, setApp] = useState<{ uid: string; name: string; logoUri: string | null } | null>(null);
  useEffect(() => {
    if (!uid) return;
    let live = true;
    void authClient.oauth2.interactionClient({ uid }).then(({ data }) => {
      if (live && data) setApp({ uid, name: data.name, logoUri: data.logoUri });
    });
    return () => {
      live = false;
    };
  }, [uid]);
  if (!uid || app?.uid !== uid) return null;
  return (
    <p className={styles.line}>
      <AppMark name={app.name} logoUri={app.logoUri} />
      <span>{t("signIn.forApplication", { app: app.name })}</span>
    </p>
  );
}
