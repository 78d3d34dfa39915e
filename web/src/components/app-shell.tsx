import { NavLink, Outlet } from "react-router";
import { useTranslation } from "react-i18next";
import { useAdministrator } from "../lib/is-admin";
import { Brand } from "./brand";
import { ImpersonationBanner } from "./impersonation-banner";
import { useCurrentSession } from "./current-session";
import { LanguageSwitcher } from "./language-switcher";
import { OrganizationSwitcher } from "./organization-switcher";
import { SignOutButton } from "./sign-out-button";
import { Avatar } from "./ui/avatar";
import styles from "./app-shell.module.css";

/** The signed-in frame: header with navigation and the user, then the page. */
export function AppShell() {
  const { t } = useTranslation();
  const { user, session } = useCurrentSession();
  const { administrator } = useAdministrator();
  const linkClass = ({ isActive }: { isActive: boolean }) => `${styles.navLink} ${isActive ? styles.active : ""}`;

  return (
    <div className={styles.shell}>
      <a href="#main" className={styles.skipLink}>
        {t("app.skipToContent")}
      </a>
      {/* Stays at the top while the page scrolls: the impersonation banner, while there is one, and the header. */}
      <div className={styles.top}>
        <ImpersonationBanner />
        <header className={styles.header}>
          <div className={styles.headerInner}>
            <Brand compact />
            <nav aria-label={t("app.mainNav")} className={styles.nav}>
              <NavLink to="/" end className={linkClass}>
                {t("nav.home")}
              </NavLink>
              <NavLink to="/account" className={linkClass}>
                {t("nav.account")}
              </NavLink>
              {administrator ? (
                <NavLink to="/admin" className={linkClass}>
                  {t("nav.admin")}
                </NavLink>
              ) : null}
              {session.activeOrganizationId ? (
                <NavLink to="/organization" className={linkClass}>
                  {t("organization.nav")}
                </NavLink>
              ) : null}
              {/* Development builds only; the page itself shows only when the service keeps an outbox. */}
              {import.meta.env.DEV ? (
                <NavLink to="/dev/outbox" className={linkClass}>
                  {t("app.devOutbox")}
                </NavLink>
              ) : null}
            </nav>
            <div className={styles.user}>
              <OrganizationSwitcher />
              {/* Kept together: on phones a long organization name takes a line of its own below them. */}
              <div className={styles.tools}>
                <LanguageSwitcher compact />
                <div className={styles.person}>
                  <span className={styles.avatar}>
                    <Avatar name={user.name} image={user.image} size="sm" />
                  </span>
                  <span className={styles.userName}>{user.name}</span>
                  <SignOutButton variant="ghost" size="sm" />
                </div>
              </div>
            </div>
          </div>
        </header>
      </div>
      <main id="main" className={styles.main}>
        <Outlet />
      </main>
    </div>
  );
}
