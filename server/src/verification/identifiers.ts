import { LOWER_ALPHANUMERIC, randomString } from "../crypto/random.js";

/**
 * Single-use values in the verification table carry their purpose in the identifier (SPEC.md section 3),
 * so a value made for one purpose can never be looked up under another.
 */
export const RESET_PASSWORD_PREFIX = "reset-password:";
export const resetPasswordIdentifier = (token: string) => `${RESET_PASSWORD_PREFIX}${token}`;
export const deleteAccountIdentifier = (token: string) => `delete-account-${token}`;
/**
 * A mailed verification (or email-change) link: its signed token names this row by its `jti`, whose value is the
 * user's id. The row makes the link single use: the first use deletes it.
 */
export const EMAIL_TOKEN_PREFIX = "email-verification:";
export const emailTokenIdentifier = (jti: string) => `${EMAIL_TOKEN_PREFIX}${jti}`;

/** 24 characters of [A-Za-z0-9] (SPEC.md section 9). */
export const newResetToken = () => randomString(24);
/** 32 characters of digits and lower-case letters (SPEC.md section 9). */
export const newDeleteToken = () => randomString(32, LOWER_ALPHANUMERIC);

export const RESET_TOKEN_PATTERN = /^[A-Za-z0-9]{24}$/;
export const DELETE_TOKEN_PATTERN = /^[a-z0-9]{32}$/;
