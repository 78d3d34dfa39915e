import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { LANGUAGES, isLanguage } from "../i18n/languages";
import { chooseLanguage, currentLanguage } from "../lib/language";
import styles from "./language-switcher.module.css";

export interface LanguageSwitcherProps {
  /** On narrow screens show only the language code ("DE"), for crowded headers. */
  compact?: boolean;
}

/**
 * A native select (so keyboards, screen readers and phones handle it as they know how), drawn as a small
 * globe button: the select lies invisibly over the picture and takes every click and key.
 */
export function LanguageSwitcher({ compact = false }: LanguageSwitcherProps) {
  const { t } = useTranslation();
  const id = useId();
  const language = currentLanguage();
  const [saveFailed, setSaveFailed] = useState(false);
  const current = LANGUAGES.find((entry) => entry.code === language) ?? LANGUAGES[1];

  async function onChange(value: string) {
    if (!isLanguage(value)) return;
    setSaveFailed(false);
    setSaveFailed(!(await chooseLanguage(value)));
  }

  return (
    <div className={`${styles.switcher} ${compact ? styles.compact : ""}`}>
      <label htmlFor={id} className="visually-hidden">
        {t("language.label")}
      </label>
      <svg className={styles.globe} viewBox="0 0 20 20" aria-hidden="true" focusable="false">
        <path
          d="M10 2.5a7.5 7.5 0 1 0 0 15 7.5 7.5 0 0 0 0-15Zm-7.5 7.5h15M10 2.5c2 2 3 4.6 3 7.5s-1 5.5-3 7.5c-2-2-3-4.6-3-7.5s1-5.5 3-7.5Z"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.4"
          strokeLinejoin="round"
        />
      </svg>
      <span className={styles.name} aria-hidden="true">
        {current.name}
      </span>
      <span className={styles.code} aria-hidden="true">
        {current.code.toUpperCase()}
      </span>
      <svg className={styles.chevron} viewBox="0 0 16 16" aria-hidden="true" focusable="false">
        <path d="m4.5 6.25 3.5 3.5 3.5-3.5" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      <select id={id} className={styles.select} value={language} onChange={(event) => void onChange(event.target.value)}>
        {LANGUAGES.map((entry) => (
          <option key={entry.code} value={entry.code} lang={entry.code}>
            {entry.name}
          </option>
        ))}
      </select>
      {saveFailed ? (
        <span className="visually-hidden" role="status">
          {t("language.saveFailed")}
        </span>
      ) : null}
    </div>
  );
}
