import type { ReactNode } from "react";
import styles from "./provider-mark.module.css";

/**
 * A provider's monogram: its first letter on a tinted square. Brand logos are left to deployments that have
 * the right to show them; the mark only helps the eye find a row. Decorative: the name is always beside it.
 */
export function ProviderMark({ id, name, size = "sm" }: { id: string; name: string; size?: "sm" | "md" }) {
  const letter = (name.trim()[0] ?? id[0] ?? "?").toUpperCase();
  return (
    <span className={`${styles.mark} ${styles[size]}`} data-provider={id} aria-hidden="true">
      {letter}
    </span>
  );
}

/** A button's label led by the provider's mark ("[G] Continue with Google"). */
export function ProviderLabel({ id, name, children }: { id: string; name: string; children: ReactNode }) {
  return (
    <span className={styles.label}>
      <ProviderMark id={id} name={name} />
      {children}
    </span>
  );
}
