import { pickLanguage, type Language } from "../email/language.js";
import { escapeHtml } from "../http/html.js";

/**
 * The two pages the provider shows itself (README "OpenID Provider"): the confirmation an application's logout
 * request (RP-initiated logout) needs before it signs the browser out, and the page after it when the application
 * named no post-logout URL. Everything else the user sees is the web app's (sign-in, consent, connected
 * applications) or the service's error page.
 */
interface LogoutTexts {
  title: string;
  /** `{client}` is replaced by the application's name. */
  askedBy: string;
  question: string;
  signOut: string;
  stay: string;
  doneTitle: string;
  done: string;
  back: string;
}

export const LOGOUT_TEXTS: Record<Language, LogoutTexts> = {
  en: {
    title: "Sign out",
    askedBy: "{client} asks to sign you out.",
    question: "Do you want to sign out of your account in this browser?",
    signOut: "Sign out",
    stay: "Stay signed in",
    doneTitle: "Signed out",
    done: "You are signed out in this browser.",
    back: "Back to the start page",
  },
  de: {
    title: "Abmelden",
    askedBy: "{client} möchte Sie abmelden.",
    question: "Möchten Sie sich in diesem Browser von Ihrem Konto abmelden?",
    signOut: "Abmelden",
    stay: "Angemeldet bleiben",
    doneTitle: "Abgemeldet",
    done: "Sie sind in diesem Browser abgemeldet.",
    back: "Zur Startseite",
  },
  es: {
    title: "Cerrar sesión",
    askedBy: "{client} solicita cerrar tu sesión.",
    question: "¿Quieres cerrar la sesión de tu cuenta en este navegador?",
    signOut: "Cerrar sesión",
    stay: "Mantener la sesión",
    doneTitle: "Sesión cerrada",
    done: "Has cerrado la sesión en este navegador.",
    back: "Volver a la página de inicio",
  },
  fr: {
    title: "Se déconnecter",
    askedBy: "{client} demande à vous déconnecter.",
    question: "Voulez-vous vous déconnecter de votre compte dans ce navigateur ?",
    signOut: "Se déconnecter",
    stay: "Rester connecté",
    doneTitle: "Déconnecté",
    done: "Vous êtes déconnecté dans ce navigateur.",
    back: "Retour à la page d'accueil",
  },
  pl: {
    title: "Wyloguj się",
    askedBy: "{client} prosi o wylogowanie.",
    question: "Czy chcesz wylogować się z konta w tej przeglądarce?",
    signOut: "Wyloguj się",
    stay: "Pozostań zalogowany",
    doneTitle: "Wylogowano",
    done: "Wylogowano Cię w tej przeglądarce.",
    back: "Wróć do strony startowej",
  },
  ru: {
    title: "Выход",
    askedBy: "{client} просит выполнить выход.",
    question: "Выйти из аккаунта в этом браузере?",
    signOut: "Выйти",
    stay: "Остаться в аккаунте",
    doneTitle: "Вы вышли",
    done: "Вы вышли из аккаунта в этом браузере.",
    back: "На главную страницу",
  },
  tr: {
    title: "Oturumu kapat",
    askedBy: "{client} oturumunuzu kapatmak istiyor.",
    question: "Bu tarayıcıda hesabınızın oturumunu kapatmak istiyor musunuz?",
    signOut: "Oturumu kapat",
    stay: "Oturum açık kalsın",
    doneTitle: "Oturum kapatıldı",
    done: "Bu tarayıcıdaki oturumunuz kapatıldı.",
    back: "Başlangıç sayfasına dön",
  },
  uk: {
    title: "Вихід",
    askedBy: "{client} просить виконати вихід.",
    question: "Вийти з облікового запису в цьому браузері?",
    signOut: "Вийти",
    stay: "Залишитися в обліковому записі",
    doneTitle: "Ви вийшли",
    done: "Ви вийшли з облікового запису в цьому браузері.",
    back: "На головну сторінку",
  },
};

const STYLE = `body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;background:#f6f7f9;color:#1f2933;margin:0;display:grid;place-items:center;min-height:100vh}
main{background:#fff;border:1px solid #e4e7eb;border-radius:12px;padding:2rem 2.5rem;max-width:28rem;margin:1rem;box-shadow:0 1px 3px rgba(0,0,0,.06)}
h1{font-size:1.25rem;margin:0 0 .75rem}p{line-height:1.5}a{color:#2457c5}
.actions{display:flex;gap:.75rem;flex-wrap:wrap;margin-top:1.25rem}
button{font:inherit;border-radius:8px;padding:.6rem 1.1rem;cursor:pointer;border:1px solid #c5cbd3;background:#fff;color:#1f2933}
button.primary{background:#2457c5;border-color:#2457c5;color:#fff}
button:focus-visible{outline:3px solid #9db7ef;outline-offset:2px}
@media (max-width:30rem){main{padding:1.5rem}.actions button{flex:1 1 100%}}`;

function page(language: Language, title: string, body: string): string {
  return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
${STYLE}
</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>`;
}

export const languageOf = (acceptLanguage: string | undefined): Language => pickLanguage(null, acceptLanguage);

/**
 * The logout confirmation. `form` is oidc-provider's hidden form (its action and the xsrf token); the buttons
 * submit it, "logout=yes" to sign out.
 */
export function logoutPage(language: Language, form: string, clientName: string | null): string {
  const t = LOGOUT_TEXTS[language];
  const asked = clientName ? `<p>${escapeHtml(t.askedBy.replace("{client}", clientName))}</p>` : "";
  return page(
    language,
    t.title,
    `<h1>${escapeHtml(t.title)}</h1>
${asked}<p>${escapeHtml(t.question)}</p>
${form}
<div class="actions">
<button class="primary" autofocus type="submit" form="op.logoutForm" value="yes" name="logout">${escapeHtml(t.signOut)}</button>
<button type="submit" form="op.logoutForm">${escapeHtml(t.stay)}</button>
</div>`,
  );
}

export function loggedOutPage(language: Language, home: string): string {
  const t = LOGOUT_TEXTS[language];
  return page(
    language,
    t.doneTitle,
    `<h1>${escapeHtml(t.doneTitle)}</h1>
<p>${escapeHtml(t.done)}</p>
<p><a href="${escapeHtml(home)}">${escapeHtml(t.back)}</a></p>`,
  );
}
