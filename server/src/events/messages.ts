/**
 * The events module's error catalogue (our own messages: Better Auth has no audit log). Each key is its message's
 * code (http/errors.ts codeOf); every catalogue is listed in http/error-catalogue.ts.
 */
export const EVENTS_MESSAGES = {
  /** admin/list-events without the `auditLog: ["list"]` permission (admin/access.ts). */
  YOU_ARE_NOT_ALLOWED_TO_LIST_EVENTS: "You are not allowed to list events",
  /** admin/export-events without the `auditLog: ["export"]` permission. */
  YOU_ARE_NOT_ALLOWED_TO_EXPORT_EVENTS: "You are not allowed to export events",
  /** organization/list-events from a member who is neither owner nor admin. */
  YOU_ARE_NOT_ALLOWED_TO_LIST_THIS_ORGANIZATIONS_EVENTS: "You are not allowed to list this organization's events",
} as const;
