import styles from "./app-mark.module.css";

/**
 * An application's mark in a list of applications a user allowed (the account's connected applications, the admin
 * user page's): its logo when it has one, else the first letter of its name. Decorative: the name is beside it.
 */
export function AppMark({ name, logoUri }: { name: string; logoUri?: string | null | undefined }) {
  if (logoUri) return <img className={styles.logo} src={logoUri} alt="" />;
  return (
    <span className={styles.initial} aria-hidden="true">
      {Array.from(name)[0]?.toUpperCase()}
    </span>
  );
}
