import styles from "./activity-list.module.css";

/** Line icons (24 px grid, drawn with the text's colour) for the kinds of event. Decorative: the label says what it is. */
const PATHS = {
  signIn: "M10 17l5-5-5-5M15 12H3M14 3.75h4.25a2 2 0 0 1 2 2v12.5a2 2 0 0 1-2 2H14",
  signOut: "M15 17l5-5-5-5M20 12H8M10 3.75H5.75a2 2 0 0 0-2 2v12.5a2 2 0 0 0 2 2H10",
  refused: "M12 9.5v3.75M12 16.75h.01M10.3 4.2 2.6 17.6a2 2 0 0 0 1.7 3h15.4a2 2 0 0 0 1.7-3L13.7 4.2a2 2 0 0 0-3.4 0Z",
  shield: "M12 3.25 19.25 6v5.5c0 4.4-2.9 7.6-7.25 9.25-4.35-1.65-7.25-4.85-7.25-9.25V6L12 3.25Z",
  person: "M12 11.25a3.75 3.75 0 1 0 0-7.5 3.75 3.75 0 0 0 0 7.5ZM4.75 20.25a7.25 7.25 0 0 1 14.5 0",
  people: "M9.5 10.5a3.25 3.25 0 1 0 0-6.5 3.25 3.25 0 0 0 0 6.5ZM3.25 19.75a6.25 6.25 0 0 1 12.5 0M15.5 4.2a3.25 3.25 0 0 1 0 6.1M17.75 13.9a6.25 6.25 0 0 1 3 5.85",
  mail: "M4.25 5.25h15.5a1 1 0 0 1 1 1v11.5a1 1 0 0 1-1 1H4.25a1 1 0 0 1-1-1V6.25a1 1 0 0 1 1-1ZM3.5 6.5l8.5 6.5 8.5-6.5",
  building: "M4.75 20.75V5.25a1.5 1.5 0 0 1 1.5-1.5h7.5a1.5 1.5 0 0 1 1.5 1.5v15.5M15.25 9.25h2.5a1.5 1.5 0 0 1 1.5 1.5v10M2.75 20.75h18.5M8.25 7.75h4M8.25 11.25h4M8.25 14.75h4",
} as const;

function iconOf(type: string): keyof typeof PATHS {
  if (type === "sign_in.failed") return "refused";
  if (type.startsWith("sign_in.") || type === "impersonation.started") return "signIn";
  if (type.startsWith("session.") || type === "impersonation.stopped") return "signOut";
  if (type.startsWith("member.")) return "people";
  if (type.startsWith("invitation.")) return "mail";
  if (type.startsWith("organization.")) return "building";
  if (type.startsWith("user.")) return "person";
  return "shield";
}

/** The icon at the start of an activity row: a sign-in, a refusal, a sign-out, a change to the account, … */
export function ActivityIcon({ type, warn = false }: { type: string; warn?: boolean }) {
  const icon = iconOf(type);
  return (
    <span className={`${styles.icon} ${warn || icon === "refused" ? styles.warn : ""}`} aria-hidden="true">
      <svg viewBox="0 0 24 24" focusable="false">
        <path d={PATHS[icon]} fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
    </span>
  );
}
