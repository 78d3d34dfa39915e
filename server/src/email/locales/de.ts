import type { MailCatalog } from "./types.js";

export const de: MailCatalog = {
  greeting: "Hallo {name},",
  expires: "Der Link ist {duration} gültig.",
  linkHint: "Falls die Schaltfläche nicht funktioniert, kopiere diesen Link in deinen Browser:",
  ignore: "Wenn du das nicht angefordert hast, kannst du diese E-Mail ignorieren.",
  signature: "Dein {appName}-Team",
  verification: {
    subject: "Bestätige deine E-Mail-Adresse",
    intro: "Bitte bestätige, dass {email} deine E-Mail-Adresse ist.",
    action: "E-Mail bestätigen",
  },
  resetPassword: {
    subject: "Passwort zurücksetzen",
    intro: "Wir haben eine Anfrage erhalten, das Passwort deines Kontos zurückzusetzen.",
    action: "Neues Passwort wählen",
  },
  changeEmail: {
    subject: "Bestätige die Änderung deiner E-Mail-Adresse",
    intro: "Du möchtest die E-Mail-Adresse deines Kontos in {newEmail} ändern. Bestätige die Änderung von dieser Adresse aus.",
    action: "Änderung bestätigen",
  },
  deleteAccount: {
    subject: "Bestätige das Löschen deines Kontos",
    intro: "Du möchtest dein Konto löschen.",
    action: "Mein Konto löschen",
    warning: "Das kann nicht rückgängig gemacht werden: Profil, Sitzungen und verknüpfte Konten werden entfernt.",
  },
  invitation: {
    subject: "{inviterName} hat dich zu {organizationName} eingeladen",
    intro: "{inviterName} ({inviterEmail}) hat dich eingeladen, der Organisation {organizationName} auf {appName} beizutreten.",
    action: "Einladung ansehen",
    ignore: "Wenn du diese Einladung nicht erwartet hast, kannst du diese E-Mail ignorieren.",
  },
  passwordChanged: {
    subject: "Dein Passwort wurde geändert",
    intro: "Das Passwort deines Kontos {email} wurde soeben geändert.",
    advice: "Wenn du das warst, musst du nichts weiter tun. Wenn nicht, kennt vielleicht jemand anderes dein Passwort: Wähle jetzt über die Schaltfläche unten ein neues und prüfe die Sitzungen deines Kontos.",
    action: "Passwort zurücksetzen",
  },
  emailChanged: {
    subject: "Deine E-Mail-Adresse wurde geändert",
    intro: "Die E-Mail-Adresse deines Kontos wurde von {email} in {newEmail} geändert. E-Mails zu diesem Konto kommen nicht mehr an diese Adresse.",
    advice: "Wenn du das warst, musst du nichts weiter tun. Wenn nicht, hat vielleicht jemand anderes Zugriff auf dein Konto: Wende dich sofort an die Verwaltung von {appName}. Links zum Zurücksetzen des Passworts gehen jetzt an die neue Adresse.",
  },
  magicLink: {
    subject: "Dein Anmeldelink",
    intro: "Melde dich mit der Schaltfläche unten als {email} bei {appName} an. Der Link funktioniert nur einmal.",
    action: "Anmelden",
  },
  codes: {
    signIn: {
      subject: "Dein Anmeldecode",
      intro: "Gib diesen Code ein, um dich als {email} bei {appName} anzumelden:",
    },
    emailVerification: {
      subject: "Dein Bestätigungscode",
      intro: "Gib diesen Code ein, um deine E-Mail-Adresse {email} zu bestätigen:",
    },
    forgetPassword: {
      subject: "Dein Code zum Zurücksetzen des Passworts",
      intro: "Gib diesen Code ein, um ein neues Passwort für dein Konto {email} zu wählen:",
    },
    changeEmail: {
      subject: "Bestätige deine neue E-Mail-Adresse",
      intro: "Gib diesen Code ein, um {email} zur E-Mail-Adresse deines Kontos zu machen:",
    },
    twoFactorSignIn: {
      subject: "Dein Bestätigungscode für die Anmeldung",
      intro: "Gerade hat jemand begonnen, sich als {email} bei {appName} anzumelden. Wenn du das nicht warst, ändere sofort dein Passwort. Gib diesen Code ein, um die Anmeldung abzuschließen:",
    },
    twoFactorEnrol: {
      subject: "Bestätige deine Anmeldecodes per E-Mail",
      intro: "Gib diesen Code ein, um deine Anmeldecodes für {appName} an {email} zu erhalten:",
    },
  },
  codeExpires: "Der Code ist {duration} gültig und funktioniert nur einmal.",
  codeNeverShare: "Gib diesen Code niemandem weiter: {appName} wird dich nie danach fragen.",
  newDevice: {
    subject: "Neue Anmeldung bei deinem {appName}-Konto",
    intro: "Dein Konto {email} wurde soeben in einem Browser angemeldet, in dem es bisher nicht verwendet wurde.",
    when: "Wann",
    browser: "Browser",
    system: "System",
    ip: "IP-Adresse",
    unknown: "unbekannt",
    advice: "Wenn du das warst, musst du nichts tun. Wenn nicht, kann sich jemand anderes als du anmelden: Melde diese Sitzung sofort ab und ändere dein Passwort.",
    action: "Sitzungen und Passwort prüfen",
    security: "Prüfe danach auf der Seite „Sicherheit“ deine zweistufige Anmeldung und deine Passkeys",
  },
};
