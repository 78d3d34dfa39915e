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
    subject: "Confirmez le changement de votre adresse e-mail",
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
  passwordChanged: {
    subject: "Votre mot de passe a été modifié",
    intro: "Le mot de passe de votre compte {email} vient d'être modifié.",
    advice: "Si c'est vous, vous n'avez rien d'autre à faire. Sinon, quelqu'un d'autre connaît peut-être votre mot de passe : choisissez-en un nouveau dès maintenant avec le bouton ci-dessous et vérifiez les sessions de votre compte.",
    action: "Réinitialiser mon mot de passe",
  },
  emailChanged: {
    subject: "Votre adresse e-mail a été modifiée",
    intro: "L'adresse e-mail de votre compte est passée de {email} à {newEmail}. Les e-mails concernant ce compte n'arriveront plus à cette adresse.",
    advice: "Si c'est vous, vous n'avez rien d'autre à faire. Sinon, quelqu'un d'autre a peut-être accès à votre compte : contactez immédiatement l'administrateur de {appName}. Les liens de réinitialisation du mot de passe sont désormais envoyés à la nouvelle adresse.",
  },
  magicLink: {
    subject: "Votre lien de connexion",
    intro: "Utilisez le bouton ci-dessous pour vous connecter à {appName} en tant que {email}. Le lien ne fonctionne qu'une fois.",
    action: "Se connecter",
  },
  codes: {
    signIn: {
      subject: "Votre code de connexion",
      intro: "Saisissez ce code pour vous connecter à {appName} en tant que {email} :",
    },
    emailVerification: {
      subject: "Votre code de vérification",
      intro: "Saisissez ce code pour vérifier votre adresse e-mail {email} :",
    },
    forgetPassword: {
      subject: "Votre code de réinitialisation du mot de passe",
      intro: "Saisissez ce code pour choisir un nouveau mot de passe pour votre compte {email} :",
    },
    changeEmail: {
      subject: "Confirmez votre nouvelle adresse e-mail",
      intro: "Saisissez ce code pour faire de {email} l'adresse e-mail de votre compte :",
    },
    twoFactorSignIn: {
      subject: "Votre code de vérification de connexion",
      intro: "Quelqu'un vient de commencer à se connecter à {appName} en tant que {email}. Si ce n'était pas vous, changez votre mot de passe maintenant. Pour terminer la connexion, saisissez ce code :",
    },
    twoFactorEnrol: {
      subject: "Confirmez vos codes de connexion par e-mail",
      intro: "Saisissez ce code pour recevoir vos codes de connexion à {appName} à l'adresse {email} :",
    },
  },
  codeExpires: "Le code est valable {duration} et ne fonctionne qu'une fois.",
  codeNeverShare: "Ne communiquez ce code à personne : {appName} ne vous le demandera jamais.",
  newDevice: {
    subject: "Nouvelle connexion à votre compte {appName}",
    intro: "Quelqu'un vient de se connecter à votre compte {email} depuis un navigateur qui n'avait encore jamais servi pour ce compte.",
    when: "Quand",
    browser: "Navigateur",
    system: "Système",
    ip: "Adresse IP",
    unknown: "inconnu",
    advice: "Si c'est vous, vous n'avez rien à faire. Sinon, quelqu'un d'autre peut se connecter à votre place : fermez cette session et changez votre mot de passe tout de suite.",
    action: "Vérifier les sessions et le mot de passe",
    security: "Vérifiez ensuite votre validation en deux étapes et vos clés d'accès sur la page Sécurité",
  },
};
