import type { ReactNode, Ref } from "react";
import styles from "./alert.module.css";

export interface AlertProps {
  variant?: "error" | "success" | "info" | "warning";
  title?: ReactNode;
  children?: ReactNode;
  /** Lets a form move focus here when the message is not about one field. */
  focusable?: boolean;
  id?: string;
  className?: string;
  ref?: Ref<HTMLDivElement>;
}

const ICONS: Record<NonNullable<AlertProps["variant"]>, string> = {
  error:
    "M8 1a7 7 0 1 1 0 14A7 7 0 0 1 8 1Zm0 9.25a.9.9 0 1 0 0 1.8.9.9 0 0 0 0-1.8ZM8 4a.8.8 0 0 0-.8.8v3.7a.8.8 0 0 0 1.6 0V4.8A.8.8 0 0 0 8 4Z",
  success:
    "M8 1a7 7 0 1 1 0 14A7 7 0 0 1 8 1Zm3.03 4.72a.75.75 0 0 0-1.06 0L7.25 8.44 6.03 7.22a.75.75 0 1 0-1.06 1.06l1.75 1.75c.3.3.77.3 1.06 0l3.25-3.25a.75.75 0 0 0 0-1.06Z",
  warning:
    "M6.6 2.3a1.6 1.6 0 0 1 2.8 0l5.4 9.7A1.6 1.6 0 0 1 13.4 14.4H2.6A1.6 1.6 0 0 1 1.2 12l5.4-9.7ZM8 10.3a.85.85 0 1 0 0 1.7.85.85 0 0 0 0-1.7ZM8 5a.75.75 0 0 0-.75.75v3a.75.75 0 0 0 1.5 0v-3A.75.75 0 0 0 8 5Z",
  info: "M8 1a7 7 0 1 1 0 14A7 7 0 0 1 8 1Zm0 6a.8.8 0 0 0-.8.8v3.4a.8.8 0 0 0 1.6 0V7.8A.8.8 0 0 0 8 7Zm0-2.9a.9.9 0 1 0 0 1.8.9.9 0 0 0 0-1.8Z",
};

/** A message box. Errors use role="alert" so they are announced when they appear; the rest are polite. */
export function Alert({ variant = "info", title, children, focusable = false, id, className, ref }: AlertProps) {
  return (
    <div
      ref={ref}
      id={id}
      role={variant === "error" ? "alert" : "status"}
      tabIndex={focusable ? -1 : undefined}
      data-focus-target={focusable || undefined}
      className={[styles.alert, styles[variant], className ?? ""].filter(Boolean).join(" ")}
    >
      <svg className={styles.icon} viewBox="0 0 16 16" aria-hidden="true" focusable="false">
        <path fill="currentColor" d={ICONS[variant]} />
      </svg>
      <div className={styles.content}>
        {title ? <p className={styles.title}>{title}</p> : null}
        {children ? <div className={styles.text}>{children}</div> : null}
      </div>
    </div>
  );
}
