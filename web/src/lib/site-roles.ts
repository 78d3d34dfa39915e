import type { AdminListRolesData } from "@gatehouse/client";
import type { TFunction } from "i18next";
import { queries, useQuery } from "./data";

export type SiteRole = AdminListRolesData["roles"][number];

/**
 * The site roles the service accepts (its default role, "user" and its administrator roles, each saying whether it
 * makes an administrator), read once per page load (GET /admin/list-roles: configuration; a failed read is asked
 * again next time): `undefined` while read, `null` when it could not be read.
 */
export function useSiteRoles(): AdminListRolesData | null | undefined {
  const roles = useQuery(queries.siteRoles());
  return roles.state === "ready" ? roles.data : roles.state === "failed" ? null : undefined;
}

/** A role's name as a picker shows it: "User", "Administrator", "Administrator (staff)", or a custom role as named. */
export function roleLabel(t: TFunction, role: SiteRole): string {
  if (role.name === "user") return t("admin.roleUser");
  if (role.administrator) return role.name === "admin" ? t("admin.roleAdmin") : t("admin.roleAdminNamed", { role: role.name });
  return role.name;
}

/**
 * The choices of a role picker: the roles the service accepts, and the user's current role string when it is none
 * of them (several roles joined with commas, or a role since removed from the configuration), so the picker can
 * show what is stored. Without the service's list, "user" and the current role.
 */
export function roleChoices(t: TFunction, roles: AdminListRolesData | null | undefined, current?: string): { value: string; label: string }[] {
  const known = roles?.roles ?? [{ name: "user", administrator: false }];
  const choices = known.map((role) => ({ value: role.name, label: roleLabel(t, role) }));
  if (current && !known.some((role) => role.name === current)) {
    const label = current
      .split(",")
      .map((name) => name.trim())
      .filter(Boolean)
      .map((name) => roleLabel(t, known.find((role) => role.name === name) ?? { name, administrator: false }))
      .join(", ");
    choices.push({ value: current, label });
  }
  return choices;
}
