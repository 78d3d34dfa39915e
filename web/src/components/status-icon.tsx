import styles from "./status-icon.module.css";

const PATHS = {
  check: "m7.5 12.5 3 3 6-6.5M12 3.75a8.25 8.25 0 1 1 0 16.5 8.25 8.25 0 0 1 0-16.5Z",
  alert: "M12 8.5v4.25m0 3.25h.01M10.3 3.9 2.6 17.4A2 2 0 0 0 4.3 20.4h15.4a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0Z",
  mail: "M3.75 6.75h16.5v10.5a1.5 1.5 0 0 1-1.5 1.5H5.25a1.5 1.5 0 0 1-1.5-1.5V6.75Zm0 0L12 13l8.25-6.25",
  lock: "M7 10.5V8a5 5 0 0 1 10 0v2.5M5.75 10.5h12.5v9.75H5.75V10.5ZM12 14v2.5",
  trash: "M4.5 6.75h15M9.75 6.75V4.5h4.5v2.25M6.75 6.75l.75 12.75h9l.75-12.75M10.25 10.5v5.5m3.5-5.5v5.5",
} as const;

export interface StatusIconProps {
  icon: keyof typeof PATHS;
  tone?: "success" | "danger" | "accent" | "warning";
}

/** The round picture above a signed-out page's heading, saying at a glance how things went. Decorative. */
export function StatusIcon({ icon, tone = "accent" }: StatusIconProps) {
  return (
    <div className={`${styles.icon} ${styles[tone]}`} aria-hidden="true">
      <svg viewBox="0 0 24 24" focusable="false">
        <path d={PATHS[icon]} fill="none" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
    </div>
  );
}
