/**
 * The webhooks module's error catalogue (our own messages: Better Auth has no webhooks). Each key is its message's
 * code (http/errors.ts codeOf); every catalogue is listed in http/error-catalogue.ts.
 */
export const WEBHOOK_MESSAGES = {
  WEBHOOK_ENDPOINT_NOT_FOUND: "Webhook endpoint not found",
  /** Endpoints of the configuration file (`webhooks.endpoints`) change in the file only. */
  WEBHOOK_ENDPOINT_IS_DECLARED_IN_THE_CONFIGURATION: "Webhook endpoint is declared in the configuration",
  /** The URL's host is a private, loopback or link-local address (or localhost) and `webhooks.allowPrivateTargets` is off. */
  WEBHOOK_URL_POINTS_TO_A_PRIVATE_ADDRESS: "Webhook URL points to a private address",
  TOO_MANY_WEBHOOK_ENDPOINTS: "Too many webhook endpoints",
  WEBHOOK_DELIVERY_NOT_FOUND: "Webhook delivery not found",
  /** A resend while an instance is sending it: its outcome comes first. */
  WEBHOOK_DELIVERY_IS_BEING_SENT: "Webhook delivery is being sent",
  /** A resend of a delivery whose event the audit log's retention has pruned. */
  EVENT_IS_NO_LONGER_IN_THE_AUDIT_LOG: "Event is no longer in the audit log",
  YOU_ARE_NOT_ALLOWED_TO_LIST_WEBHOOKS: "You are not allowed to list webhooks",
  YOU_ARE_NOT_ALLOWED_TO_CREATE_WEBHOOKS: "You are not allowed to create webhooks",
  YOU_ARE_NOT_ALLOWED_TO_UPDATE_WEBHOOKS: "You are not allowed to update webhooks",
  YOU_ARE_NOT_ALLOWED_TO_DELETE_WEBHOOKS: "You are not allowed to delete webhooks",
  YOU_ARE_NOT_ALLOWED_TO_RESEND_WEBHOOKS: "You are not allowed to resend webhooks",
} as const;
