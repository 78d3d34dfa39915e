import { NavLink } from "react-router";
import { useTranslation } from "react-i18next";
import styles from "./admin-nav.module.css";

/** The administration console's sections, above each of its lists. */
export function AdminNav() {
  const { t } = useTranslation();
  const linkClass = ({ isActive }: { isActive: boolean }) => `${styles.link} ${isActive ? styles.active : ""}`;
  return (
    <nav className={styles.nav} aria-label={t("admin.sections")}>
      <NavLink to="/admin" end className={linkClass}>
        {t("admin.title")}
      </NavLink>
      <NavLink to="/admin/organizations" end className={linkClass}>
        {t("admin.organizations.title")}
      </NavLink>
      <NavLink to="/admin/audit-log" end className={linkClass}>
        {t("activity.admin.title")}
      </NavLink>
      {/* Active on an endpoint's own page too. */}
      <NavLink to="/admin/webhooks" className={linkClass}>
        {t("admin.webhooks.title")}
      </NavLink>
      {/* The OpenID Provider's clients; active on a client's own page too. */}
      <NavLink to="/admin/applications" className={linkClass}>
        {t("admin.applications.title")}
      </NavLink>
    </nav>
  );
}
