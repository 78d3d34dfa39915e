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
    subject: "Potwierdź nowy adres e-mail",
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
};
