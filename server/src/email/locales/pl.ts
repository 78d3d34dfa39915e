import type { MailCatalog } from "./types.js";

export const pl: MailCatalog = {
  greeting: "Witaj, {name}!",
  expires: "Link jest ważny przez {duration}.",
  linkHint: "Jeśli przycisk nie działa, skopiuj ten link do przeglądarki:",
  ignore: "Jeśli to nie Ty, możesz zignorować tę wiadomość.",
  signature: "Zespół {appName}",
  verification: {
    subject: "Potwierdź swój adres e-mail",
    intro: "Potwierdź, że {email} to Twój adres e-mail.",
    action: "Potwierdź adres",
  },
  resetPassword: {
    subject: "Zresetuj hasło",
    intro: "Otrzymaliśmy prośbę o zresetowanie hasła do Twojego konta.",
    action: "Ustaw nowe hasło",
  },
  changeEmail: {
    subject: "Potwierdź zmianę adresu e-mail",
    intro: "Poprosiłeś o zmianę adresu e-mail Twojego konta na {newEmail}. Potwierdź zmianę z tego adresu.",
    action: "Potwierdź zmianę",
  },
  deleteAccount: {
    subject: "Potwierdź usunięcie konta",
    intro: "Poprosiłeś o usunięcie swojego konta.",
    action: "Usuń moje konto",
    warning: "Tej operacji nie można cofnąć: profil, sesje i powiązane konta zostaną usunięte.",
  },
  invitation: {
    subject: "{inviterName} zaprasza Cię do organizacji {organizationName}",
    intro: "{inviterName} ({inviterEmail}) zaprasza Cię do dołączenia do organizacji {organizationName} w {appName}.",
    action: "Zobacz zaproszenie",
    ignore: "Jeśli nie spodziewasz się tego zaproszenia, możesz zignorować tę wiadomość.",
  },
  passwordChanged: {
    subject: "Twoje hasło zostało zmienione",
    intro: "Hasło Twojego konta {email} zostało właśnie zmienione.",
    advice: "Jeśli to Ty, nie musisz nic więcej robić. Jeśli nie, ktoś inny może znać Twoje hasło: od razu ustaw nowe przyciskiem poniżej i sprawdź sesje swojego konta.",
    action: "Zresetuj hasło",
  },
  emailChanged: {
    subject: "Twój adres e-mail został zmieniony",
    intro: "Adres e-mail Twojego konta został zmieniony z {email} na {newEmail}. Wiadomości dotyczące tego konta nie będą już przychodzić na ten adres.",
    advice: "Jeśli to Ty, nie musisz nic więcej robić. Jeśli nie, ktoś inny może mieć dostęp do Twojego konta: natychmiast skontaktuj się z administratorem {appName}. Linki do resetowania hasła są teraz wysyłane na nowy adres.",
  },
  magicLink: {
    subject: "Twój link do logowania",
    intro: "Użyj przycisku poniżej, aby zalogować się do {appName} jako {email}. Link działa tylko raz.",
    action: "Zaloguj się",
  },
  codes: {
    signIn: {
      subject: "Twój kod logowania",
      intro: "Wpisz ten kod, aby zalogować się do {appName} jako {email}:",
    },
    emailVerification: {
      subject: "Twój kod weryfikacyjny",
      intro: "Wpisz ten kod, aby potwierdzić swój adres e-mail {email}:",
    },
    forgetPassword: {
      subject: "Twój kod do zresetowania hasła",
      intro: "Wpisz ten kod, aby ustawić nowe hasło do konta {email}:",
    },
    changeEmail: {
      subject: "Potwierdź nowy adres e-mail",
      intro: "Wpisz ten kod, aby {email} stał się adresem e-mail Twojego konta:",
    },
    twoFactorSignIn: {
      subject: "Twój kod weryfikacyjny logowania",
      intro: "Ktoś właśnie zaczął logowanie do {appName} jako {email}. Jeśli to nie Ty, natychmiast zmień hasło. Aby dokończyć logowanie, wpisz ten kod:",
    },
    twoFactorEnrol: {
      subject: "Potwierdź otrzymywanie kodów logowania e-mailem",
      intro: "Wpisz ten kod, aby otrzymywać kody logowania do {appName} na adres {email}:",
    },
  },
  codeExpires: "Kod jest ważny przez {duration} i działa tylko raz.",
  codeNeverShare: "Nigdy nikomu nie podawaj tego kodu: {appName} nigdy o niego nie poprosi.",
  newDevice: {
    subject: "Nowe logowanie na Twoje konto {appName}",
    intro: "Na Twoje konto {email} właśnie zalogowano się z przeglądarki, w której nie było ono wcześniej używane.",
    when: "Kiedy",
    browser: "Przeglądarka",
    system: "System",
    ip: "Adres IP",
    unknown: "nieznany",
    advice: "Jeśli to Ty, nie musisz nic robić. Jeśli nie, ktoś inny może logować się jako Ty: od razu wyloguj tę sesję i zmień hasło.",
    action: "Sprawdź sesje i hasło",
    security: "Następnie sprawdź logowanie dwuetapowe i klucze dostępu na stronie Bezpieczeństwo",
  },
};
