/**
 * The service's default password policy (server/src/config/options.ts), used until GET /features tells the
 * configured one (see use-password-bounds.ts). The service enforces its limits and its error is shown when they differ.
 */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
