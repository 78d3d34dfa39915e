import type { MailCatalog } from "./types.js";

export const en: MailCatalog = {
  greeting: "Hello {name},",
  expires: "The link is valid for {duration}.",
  linkHint: "If the button does not work, copy this link into your browser:",
  ignore: "If you did not ask for this, you can safely ignore this email.",
  signature: "The {appName} team",
  verification: {
    subject: "Verify your email address",
    intro: "Please confirm that {email} is your email address.",
    action: "Verify email",
  },
  resetPassword: {
    subject: "Reset your password",
    intro: "We received a request to reset the password of your account.",
    action: "Choose a new password",
  },
  changeEmail: {
    subject: "Confirm the change of your email address",
    intro: "You asked to change the email address of your account to {newEmail}. Confirm the change from this address.",
    action: "Confirm the change",
  },
  deleteAccount: {
    subject: "Confirm the deletion of your account",
    intro: "You asked to delete your account.",
    action: "Delete my account",
    warning: "This cannot be undone: your profile, sessions and linked accounts will be removed.",
  },
  invitation: {
    subject: "{inviterName} invited you to join {organizationName}",
    intro: "{inviterName} ({inviterEmail}) invited you to join the organization {organizationName} on {appName}.",
    action: "View the invitation",
    ignore: "If you were not expecting this invitation, you can safely ignore this email.",
  },
  passwordChanged: {
    subject: "Your password was changed",
    intro: "The password of your account {email} was just changed.",
    advice: "If this was you, there is nothing more to do. If it was not, someone else may know your password: choose a new one now with the button below, and check the sessions of your account.",
    action: "Reset my password",
  },
  emailChanged: {
    subject: "Your email address was changed",
    intro: "The email address of your account was changed from {email} to {newEmail}. Mail about this account will no longer come to this address.",
    advice: "If this was you, there is nothing more to do. If it was not, someone else may have access to your account: contact the administrator of {appName} right away. Password reset links now go to the new address.",
  },
  magicLink: {
    subject: "Your sign-in link",
    intro: "Use the button below to sign in to {appName} as {email}. The link works once.",
    action: "Sign in",
  },
  codes: {
    signIn: {
      subject: "Your sign-in code",
      intro: "Enter this code to sign in to {appName} as {email}:",
    },
    emailVerification: {
      subject: "Your verification code",
      intro: "Enter this code to verify your email address {email}:",
    },
    forgetPassword: {
      subject: "Your password reset code",
      intro: "Enter this code to choose a new password for your account {email}:",
    },
    changeEmail: {
      subject: "Confirm your new email address",
      intro: "Enter this code to make {email} the email address of your account:",
    },
    twoFactorSignIn: {
      subject: "Your sign-in verification code",
      intro: "Someone just started signing in to {appName} as {email}. If it was not you, change your password now. To finish signing in, enter this code:",
    },
    twoFactorEnrol: {
      subject: "Confirm your sign-in codes by email",
      intro: "Enter this code to receive your sign-in codes for {appName} at {email}:",
    },
  },
  codeExpires: "The code is valid for {duration} and works once.",
  codeNeverShare: "Never give this code to anyone: {appName} will never ask you for it.",
  newDevice: {
    subject: "New sign-in to your {appName} account",
    intro: "Your account {email} was just signed in to from a browser it had not been used with before.",
    when: "When",
    browser: "Browser",
    system: "System",
    ip: "IP address",
    unknown: "unknown",
    advice: "If this was you, there is nothing to do. If it was not, someone else can sign in as you: sign that session out and change your password right away.",
    action: "Review sessions and password",
    security: "Then check your two-step sign-in and passkeys on the Security page",
  },
};
