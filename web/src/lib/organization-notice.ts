import { useEffect, useState } from "react";
import { useLocation, useNavigate } from "react-router";
import { useTranslation } from "react-i18next";
import type { ActionOutcome } from "../components/action-message";

/** An organization action whose page went away with it (leaving, deleting) or that moved on (joining). */
export type OrganizationNoticeKind = "left" | "deleted" | "joined";

interface NoticeState {
  organizationNotice: { kind: OrganizationNoticeKind; name: string };
}

/** Location state for navigate(): the page it leads to says what happened. */
export function organizationNotice(kind: OrganizationNoticeKind, name: string): NoticeState {
  return { organizationNotice: { kind, name } };
}

function noticeOf(state: unknown): NoticeState["organizationNotice"] | null {
  const notice = (state as Partial<NoticeState> | null)?.organizationNotice;
  return notice && typeof notice.name === "string" && ["left", "deleted", "joined"].includes(notice.kind) ? notice : null;
}

/**
 * The notice the previous page sent along, as the page's first action message under `scope`. It is read once
 * and then dropped from the history entry, so reloading the page or coming back to it does not repeat it.
 */
export function useCarriedNotice(scope: string): ActionOutcome | null {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const [notice] = useState(() => noticeOf(location.state));
  useEffect(() => {
    if (noticeOf(location.state)) void navigate(location.pathname + location.search + location.hash, { replace: true, state: null });
  }, [location, navigate]);
  if (!notice) return null;
  return { scope, variant: "success", text: t(`organization.notices.${notice.kind}`, { name: notice.name }) };
}
