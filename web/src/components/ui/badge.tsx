import type { ReactNode } from "react";
import styles from "./badge.module.css";

export interface BadgeProps {
  variant?: "neutral" | "accent" | "success" | "warning" | "danger";
  children: ReactNode;
}

export function Badge({ variant = "neutral", children }: BadgeProps) {
  return <span className={`${styles.badge} ${styles[variant]}`}>{children}</span>;
}
