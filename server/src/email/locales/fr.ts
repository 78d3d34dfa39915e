import type { MailCatalog } from "./types.js";

export const fr: MailCatalog = {
  greeting: "Bonjour {name},",
  expires: "Le lien est valable {duration}.",
  linkHint: "Si le bouton ne fonctionne pas, copiez ce lien dans votre navigateur :",
  ignore: "Si vous n'êtes pas à l'origine de cette demande, vous pouvez ignorer cet e-mail.",
  signature: "L'équipe {appName}",
  verification: {
    subject: "Vérifiez votre adresse e-mail",
    intro: "Merci de confirmer que {email} est bien votre adresse e-mail.",
    action: "Vérifier l'adresse",
  },
  resetPassword: {
    subject: "Réinitialisez votre mot de passe",
    intro: "Nous avons reçu une demande de réinitialisation du mot de passe de votre compte.",
    action: "Choisir un nouveau mot de passe",
  },
  changeEmail: {
    subject: "Confirmez votre nouvelle adresse e-mail",
    intro: "Vous avez demandé à remplacer l'adresse e-mail de votre compte par {newEmail}. Confirmez le changement depuis cette adresse.",
    action: "Confirmer le changement",
  },
  deleteAccount: {
    subject: "Confirmez la suppression de votre compte",
    intro: "Vous avez demandé la suppression de votre compte.",
    action: "Supprimer mon compte",
    warning: "Cette action est irréversible : votre profil, vos sessions et vos comptes liés seront supprimés.",
  },
  invitation: {
    subject: "{inviterName} vous invite à rejoindre {organizationName}",
    intro: "{inviterName} ({inviterEmail}) vous invite à rejoindre l'organisation {organizationName} sur {appName}.",
    action: "Voir l'invitation",
    ignore: "Si vous n'attendiez pas cette invitation, vous pouvez ignorer cet e-mail.",
  },
};
