import type { AuthError } from "@gatehouse/client";

/** Whether a failed read means the service has no OpenID Provider (its routes do not exist), rather than a refusal. */
export const providerIsOff = (error: AuthError | null | undefined): boolean => error?.status === 404 && error.code === "NOT_FOUND";
