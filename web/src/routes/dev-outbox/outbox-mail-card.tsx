import type { OutboxMail } from "@gatehouse/client";
import { Fragment } from "react";
import { useTranslation } from "react-i18next";
import { Badge } from "../../components/ui/badge";
import { formatDateTime } from "../../lib/format-time";
import styles from "./outbox-mail-card.module.css";

const LINK = /https?:\/\/[^\s<>"]+/g;

/** The mail's plain text with its http(s) addresses as links; everything else stays text (React escapes it). */
function linkify(text: string) {
  const parts: (string | { href: string })[] = [];
  let last = 0;
  for (const match of text.matchAll(LINK)) {
    parts.push(text.slice(last, match.index), { href: match[0] });
    last = match.index + match[0].length;
  }
  parts.push(text.slice(last));
  return parts.map((part, index) =>
    typeof part === "string" ? (
      <Fragment key={index}>{part}</Fragment>
    ) : (
      <a key={index} href={part.href}>
        {part.href}
      </a>
    ),
  );
}

/** A link's path, which says what it does ("/api/auth/verify-email") better than the whole address. */
function pathOf(href: string): string {
  try {
    return new URL(href).pathname;
  } catch {
    return href;
  }
}

export function OutboxMailCard({ mail }: { mail: OutboxMail }) {
  const { t, i18n } = useTranslation();
  const links = [...new Set(mail.text.match(LINK) ?? [])];
  return (
    <article className={styles.mail} aria-labelledby={`mail-${mail.id}`}>
      <header className={styles.header}>
        <h2 id={`mail-${mail.id}`} className={styles.subject}>
          {mail.subject}
        </h2>
        <Badge>{mail.kind}</Badge>
      </header>
      <dl className={styles.meta}>
        <div>
          <dt>{t("devOutbox.to")}</dt>
          <dd>{mail.to}</dd>
        </div>
        <div>
          <dt>{t("devOutbox.sent")}</dt>
          <dd>
            <time dateTime={mail.sentAt}>{formatDateTime(mail.sentAt, i18n.language)}</time>
          </dd>
        </div>
      </dl>
      <p className={styles.text}>{linkify(mail.text.trim())}</p>
      {links.length > 0 ? (
        <ul className={styles.links} aria-label={t("devOutbox.links")}>
          {links.map((href) => (
            <li key={href}>
              <a className={styles.open} href={href}>
                {t("devOutbox.open", { path: pathOf(href) })}
              </a>
            </li>
          ))}
        </ul>
      ) : null}
    </article>
  );
}
