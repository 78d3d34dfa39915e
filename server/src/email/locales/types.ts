/** One language's wording of every message Gatehouse mails. `{name}`-style placeholders are filled in. */
export interface MailMessage {
  subject: string;
  /** The opening paragraph. */
  intro: string;
  /** The button's label. */
  action: string;
}

export interface MailCatalog {
  /** "Hello {name}," */
  greeting: string;
  /** "The link is valid for {duration}." */
  expires: string;
  /** "If the button does not work, open this link:" */
  linkHint: string;
  /** "If you did not ask for this, you can ignore this email." */
  ignore: string;
  /** Sign-off, "{appName}" is filled in. */
  signature: string;
  verification: MailMessage;
  resetPassword: MailMessage;
  /** Sent to the current address; "{newEmail}" is filled in. */
  changeEmail: MailMessage;
  deleteAccount: MailMessage & { warning: string };
  /**
   * An invitation to an organization; "{organizationName}", "{inviterName}" and "{inviterEmail}" are filled in.
   * `ignore` replaces the catalog's own closing line (the recipient did not ask for an invitation).
   */
  invitation: MailMessage & { ignore: string };
  /**
   * A notice that the password changed (changed, reset, set, or set by an administrator). No token: its button
   * leads to the app's "forgot password" page. `advice` says what to do if it was not the user.
   */
  passwordChanged: MailNotice & { action: string };
  /** Sent to the old address once an email change took effect; "{email}" is the old address, "{newEmail}" the new. */
  emailChanged: MailNotice;
  /** A sign-in link (magic link): it signs "{email}" in, once. */
  magicLink: MailMessage;
  /**
   * Mails that carry a one-time code instead of a link (templates.ts renderCodeMail): the code stands on a line of
   * its own after `intro`; "{email}" is the address the code proves (the new one for an email change).
   */
  codes: Record<CodeMailKind, { subject: string; intro: string }>;
  /** "The code is valid for {duration} and works once." */
  codeExpires: string;
  /** Never give the code to anyone; "{appName}" is filled in. */
  codeNeverShare: string;
  /** A sign-in from a browser the user had not signed in from before (new-device/; templates.ts renderNewDeviceMail). */
  newDevice: NewDeviceMessage;
}

/**
 * The new-device mail: `intro`, then the sign-in's details under their labels (a name the browser or system does not
 * tell is `unknown`), `advice` and the button to the sessions and the password, then `security` before the link to
 * the Security page. "{email}" and "{appName}" are filled in.
 */
export interface NewDeviceMessage {
  subject: string;
  intro: string;
  /** Labels of the details: when (a date and time in UTC), which browser, which system, from which IP address. */
  when: string;
  browser: string;
  system: string;
  ip: string;
  unknown: string;
  /** If it was them, nothing to do; if not, what to do now (the button follows). */
  advice: string;
  /** The button: the account page's sessions, where the session is signed out, and its password form. */
  action: string;
  /** Before the Security page's link: second factors and passkeys to check. */
  security: string;
}

/**
 * What a mailed code is for: passwordless/email-otp's, and the second step's (two-factor/mail.ts: at a sign-in, and
 * while the user proves the mailbox before the email code becomes a second factor).
 */
export type CodeMailKind = "signIn" | "emailVerification" | "forgetPassword" | "changeEmail" | "twoFactorSignIn" | "twoFactorEnrol";

/** A message that tells rather than asks: no link to confirm, nothing expires. */
export interface MailNotice {
  subject: string;
  intro: string;
  /** What to do if the user did not do this. */
  advice: string;
}
