import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { authClient } from "../lib/auth-client";
import { INTERACTION_PATH } from "../lib/return-to";
import styles from "./for-application.module.css";

/**
 * Names the application an OpenID Provider's authorization is for, on the pages a sign-in passes on its way there
 * (sign-in, second step): `path` is where the page goes on to, and only the provider's interaction path names one.
 * Nothing is shown while the name loads, or when the authorization is unknown or over.
 */
export function ForApplication({ path }: { path: string | null }) {
  const { t } = useTranslation();
  const uid = path?.startsWith(INTERACTION_PATH) ? (path.slice(INTERACTION_PATH.length).split(/[/?#]/)[0] ?? "") : "";
  const [name, setName] = useState<{ uid: string; name: string } | null>(null);
  useEffect(() => {
    if (!uid) return;
    let live = true;
    void authClient.oauth2.interactionClient({ uid }).then(({ data }) => {
      if (live && data) setName({ uid, name: data.name });
    });
    return () => {
      live = false;
    };
  }, [uid]);
  if (!uid || name?.uid !== uid) return null;
  return (
    <p className={styles.line} data-testid="for-application">
      {t("signIn.forApplication", { app: name.name })}
    </p>
  );
}
