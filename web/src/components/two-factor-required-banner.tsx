import { useId } from "react";
import { useTranslation } from "react-i18next";
import { ButtonLink } from "./ui/button-link";
import styles from "./warning-banner.module.css";

/**
 * An organization the user belongs to refuses them until their account has a second factor (README.md,
 * "Organization policy and administrators"): says so, and leads to the Security page where they set one up.
 * Shown on the organization page in place of the organization, and on the home page for each such membership.
 */
export function TwoFactorRequiredBanner({ name }: { name: string }) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <section className={styles.banner} aria-labelledby={titleId} data-two-factor-required={name}>
      <svg className={styles.icon} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <path
          d="M12 3.25 5.25 6v5.25c0 4.2 2.85 7.8 6.75 9 3.9-1.2 6.75-4.8 6.75-9V6L12 3.25Zm0 6v3.5m0 3h.01"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.6"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      <div className={styles.text}>
        <h2 id={titleId} className={styles.title}>
          {t("organization.policy.refusedTitle", { name })}
        </h2>
        <p>{t("organization.policy.refusedText")}</p>
      </div>
      <ButtonLink to="/account/security" variant="secondary" className={styles.action}>
        {t("organization.policy.refusedLink")}
      </ButtonLink>
    </section>
  );
}
