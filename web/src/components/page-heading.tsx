import { useEffect, useRef, type ReactNode } from "react";
import styles from "./page-heading.module.css";

export interface PageHeadingProps {
  children: ReactNode;
  lead?: ReactNode;
  align?: "start" | "center";
}

/**
 * The page's h1. It takes focus when the page appears, so after a client-side navigation screen readers
 * announce the new page and the next Tab starts from its top.
 */
export function PageHeading({ children, lead, align = "start" }: PageHeadingProps) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    ref.current?.focus({ preventScroll: true });
  }, []);
  return (
    <div className={`${styles.wrapper} ${align === "center" ? styles.center : ""}`}>
      <h1 ref={ref} tabIndex={-1} className={styles.heading}>
        {children}
      </h1>
      {lead ? <p className={styles.lead}>{lead}</p> : null}
    </div>
  );
}
