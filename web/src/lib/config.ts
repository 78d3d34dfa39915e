/**
 * The service's default password policy (server/src/config/options.ts). Shown as a hint only: the
 * service enforces its configured limits and its error is shown when they differ.
 */
export const PASSWORD_MIN_LENGTH = 8;
