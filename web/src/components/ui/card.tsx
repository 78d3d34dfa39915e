import { useId, type ReactNode } from "react";
import styles from "./card.module.css";

export interface CardProps {
  /** The card's heading; the card becomes a labelled region. */
  title?: ReactNode;
  description?: ReactNode;
  /** Controls beside the heading (on phones they wrap below it). */
  actions?: ReactNode;
  /** A footer strip, usually the card's buttons. */
  footer?: ReactNode;
  headingLevel?: 2 | 3;
  id?: string;
  className?: string;
  /** Removes the body's inner padding, for edge-to-edge lists. */
  flush?: boolean;
  children?: ReactNode;
}

export function Card({
  title,
  description,
  actions,
  footer,
  headingLevel = 2,
  id,
  className,
  flush = false,
  children,
}: CardProps) {
  const headingId = useId();
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <section
      id={id}
      className={[styles.card, className ?? ""].filter(Boolean).join(" ")}
      aria-labelledby={title ? headingId : undefined}
    >
      {title ? (
        <header className={styles.header}>
          <div className={styles.headerText}>
            <Heading id={headingId} className={styles.title}>
              {title}
            </Heading>
            {description ? <p className={styles.description}>{description}</p> : null}
          </div>
          {actions ? <div className={styles.actions}>{actions}</div> : null}
        </header>
      ) : null}
      {children ? <div className={flush ? styles.flush : styles.body}>{children}</div> : null}
      {footer ? <footer className={styles.footer}>{footer}</footer> : null}
    </section>
  );
}
