import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { LastUsedBadge } from "../../components/last-used-badge";
import { Alert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { ButtonLink } from "../../components/ui/button-link";
import { lastUsedMethod } from "../../lib/last-used-method";
import type { SignInState } from "../../lib/email-sign-in";
import { useFeatures } from "../../lib/use-features";
import { usePasskeySignIn } from "./use-passkey-sign-in";
import styles from "./other-sign-in-ways.module.css";

const ICONS = {
  passkey: "M7.5 8.25a3.75 3.75 0 1 1 0 7.5 3.75 3.75 0 0 1 0-7.5ZM11.25 12h9.5M17.5 12v3M20.75 12v2.25",
  link: "M10 14a3.5 3.5 0 0 0 5 0l3-3a3.54 3.54 0 0 0-5-5l-.75.75M14 10a3.5 3.5 0 0 0-5 0l-3 3a3.54 3.54 0 0 0 5 5l.75-.75",
} as const;

/** A way in's mark, drawn as a social provider's is (a small tile), then its label. A code's mark is "123". */
function MethodLabel({ icon, children }: { icon: keyof typeof ICONS | "code"; children: ReactNode }) {
  return (
    <span className={styles.label}>
      <span className={styles.mark} aria-hidden="true">
        {icon === "code" ? (
          <span className={styles.digits}>123</span>
        ) : (
          <svg viewBox="0 0 24 24" focusable="false">
            <path d={ICONS[icon]} fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        )}
      </span>
      {children}
    </span>
  );
}

export interface OtherSignInWaysProps {
  /** Where to go once signed in. */
  returnTo: string;
  /** The address typed in the form so far ("" when it holds a username), handed to the mailed-link and code pages. */
  email: string;
}

/**
 * The ways in without a password, under the form: a passkey (the browser's prompt; its autofill runs in the
 * username field meanwhile), a link or a code by email (pages of their own). Each shows only where the deployment
 * has it on (GET /features), and the one this browser used last is marked.
 */
export function OtherSignInWays({ returnTo, email }: OtherSignInWaysProps) {
  const { t } = useTranslation();
  const features = useFeatures();
  const [lastUsed] = useState(lastUsedMethod);
  // Until the features are read, nothing is offered; a failed read offers everything and lets the service answer.
  const on = (feature: "passkey" | "magicLink" | "emailOTP") => features !== undefined && (features === null || features[feature].enabled);
  const passkey = usePasskeySignIn(returnTo, on("passkey"));
  const state: SignInState = { from: returnTo, ...(email ? { email } : {}) };

  const ways = [
    on("passkey") ? (
      <li key="passkey">
        {lastUsed === "passkey" ? <LastUsedBadge /> : null}
        <Button variant="secondary" fullWidth loading={passkey.pending} loadingText={t("passkeys.signingIn")} onClick={passkey.start}>
          <MethodLabel icon="passkey">{t("passkeys.signIn")}</MethodLabel>
        </Button>
      </li>
    ) : null,
    on("magicLink") ? (
      <li key="link">
        {lastUsed === "magic-link" ? <LastUsedBadge /> : null}
        <ButtonLink to="/sign-in/link" state={state} variant="secondary" fullWidth>
          <MethodLabel icon="link">{t("emailSignIn.linkButton")}</MethodLabel>
        </ButtonLink>
      </li>
    ) : null,
    on("emailOTP") ? (
      <li key="code">
        {lastUsed === "email-otp" ? <LastUsedBadge /> : null}
        <ButtonLink to="/sign-in/code" state={state} variant="secondary" fullWidth>
          <MethodLabel icon="code">{t("emailSignIn.codeButton")}</MethodLabel>
        </ButtonLink>
      </li>
    ) : null,
  ].filter(Boolean);

  if (ways.length === 0) return null;
  return (
    <div className={styles.ways}>
      <p className={styles.divider}>
        <span>{t("social.or")}</span>
      </p>
      {passkey.error ? (
        <Alert variant="error" focusable>
          {passkey.error}
        </Alert>
      ) : null}
      <ul className={styles.list} aria-label={t("emailSignIn.waysLabel")}>
        {ways}
      </ul>
    </div>
  );
}
