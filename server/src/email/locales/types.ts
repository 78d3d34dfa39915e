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
}
