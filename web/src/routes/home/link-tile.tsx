import type { ReactNode } from "react";
import { Link } from "react-router";
import styles from "./link-tile.module.css";

const ICONS = {
  user: "M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8Zm-7 8a7 7 0 0 1 14 0",
  devices: "M3 6.5A1.5 1.5 0 0 1 4.5 5h11A1.5 1.5 0 0 1 17 6.5V14H3V6.5ZM1.5 17h15M19 9h2.5a1 1 0 0 1 1 1v8a1 1 0 0 1-1 1H19a1 1 0 0 1-1-1v-8a1 1 0 0 1 1-1Z",
} as const;

export interface LinkTileProps {
  to: string;
  title: ReactNode;
  icon: keyof typeof ICONS;
  children: ReactNode;
}

/** A card-sized link to another part of the app. */
export function LinkTile({ to, title, icon, children }: LinkTileProps) {
  return (
    <Link to={to} className={styles.tile}>
      <span className={styles.icon} aria-hidden="true">
        <svg viewBox="0 0 24 24" focusable="false">
          <path d={ICONS[icon]} fill="none" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      </span>
      <span className={styles.text}>
        <span className={styles.title}>{title}</span>
        <span className={styles.description}>{children}</span>
      </span>
      <svg className={styles.chevron} viewBox="0 0 16 16" aria-hidden="true" focusable="false">
        <path d="m6 3.5 4.5 4.5L6 12.5" fill="none" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
    </Link>
  );
}
