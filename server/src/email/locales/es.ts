import type { MailCatalog } from "./types.js";

export const es: MailCatalog = {
  greeting: "Hola, {name}:",
  expires: "El enlace es válido durante {duration}.",
  linkHint: "Si el botón no funciona, copia este enlace en tu navegador:",
  ignore: "Si no lo has solicitado, puedes ignorar este correo.",
  signature: "El equipo de {appName}",
  verification: {
    subject: "Verifica tu dirección de correo",
    intro: "Confirma que {email} es tu dirección de correo electrónico.",
    action: "Verificar correo",
  },
  resetPassword: {
    subject: "Restablece tu contraseña",
    intro: "Hemos recibido una solicitud para restablecer la contraseña de tu cuenta.",
    action: "Elegir una nueva contraseña",
  },
  changeEmail: {
    subject: "Confirma el cambio de tu dirección de correo",
    intro: "Has pedido cambiar la dirección de correo de tu cuenta a {newEmail}. Confirma el cambio desde esta dirección.",
    action: "Confirmar el cambio",
  },
  deleteAccount: {
    subject: "Confirma la eliminación de tu cuenta",
    intro: "Has pedido eliminar tu cuenta.",
    action: "Eliminar mi cuenta",
    warning: "No se puede deshacer: se eliminarán tu perfil, tus sesiones y tus cuentas vinculadas.",
  },
  invitation: {
    subject: "{inviterName} te ha invitado a unirte a {organizationName}",
    intro: "{inviterName} ({inviterEmail}) te ha invitado a unirte a la organización {organizationName} en {appName}.",
    action: "Ver la invitación",
    ignore: "Si no esperabas esta invitación, puedes ignorar este correo.",
  },
  passwordChanged: {
    subject: "Tu contraseña ha cambiado",
    intro: "La contraseña de tu cuenta {email} acaba de cambiar.",
    advice: "Si has sido tú, no tienes que hacer nada más. Si no, puede que otra persona conozca tu contraseña: elige una nueva ahora con el botón de abajo y revisa las sesiones de tu cuenta.",
    action: "Restablecer mi contraseña",
  },
  emailChanged: {
    subject: "Tu dirección de correo ha cambiado",
    intro: "La dirección de correo de tu cuenta ha cambiado de {email} a {newEmail}. Los correos sobre esta cuenta ya no llegarán a esta dirección.",
    advice: "Si has sido tú, no tienes que hacer nada más. Si no, puede que otra persona tenga acceso a tu cuenta: ponte en contacto de inmediato con el administrador de {appName}. Los enlaces para restablecer la contraseña se envían ahora a la nueva dirección.",
  },
  magicLink: {
    subject: "Tu enlace de inicio de sesión",
    intro: "Usa el botón de abajo para iniciar sesión en {appName} como {email}. El enlace funciona una sola vez.",
    action: "Iniciar sesión",
  },
  codes: {
    signIn: {
      subject: "Tu código de inicio de sesión",
      intro: "Introduce este código para iniciar sesión en {appName} como {email}:",
    },
    emailVerification: {
      subject: "Tu código de verificación",
      intro: "Introduce este código para verificar tu dirección de correo {email}:",
    },
    forgetPassword: {
      subject: "Tu código para restablecer la contraseña",
      intro: "Introduce este código para elegir una nueva contraseña para tu cuenta {email}:",
    },
    changeEmail: {
      subject: "Confirma tu nueva dirección de correo",
      intro: "Introduce este código para que {email} sea la dirección de correo de tu cuenta:",
    },
    twoFactorSignIn: {
      subject: "Tu código de verificación de inicio de sesión",
      intro: "Alguien acaba de empezar a iniciar sesión en {appName} como {email}. Si no has sido tú, cambia tu contraseña ahora. Para terminar de iniciar sesión, introduce este código:",
    },
    twoFactorEnrol: {
      subject: "Confirma tus códigos de inicio de sesión por correo",
      intro: "Introduce este código para recibir tus códigos de inicio de sesión de {appName} en {email}:",
    },
  },
  codeExpires: "El código es válido durante {duration} y funciona una sola vez.",
  codeNeverShare: "No compartas este código con nadie: {appName} nunca te lo pedirá.",
  newDevice: {
    subject: "Nuevo inicio de sesión en tu cuenta de {appName}",
    intro: "Se acaba de iniciar sesión en tu cuenta {email} desde un navegador en el que no se había usado antes.",
    when: "Cuándo",
    browser: "Navegador",
    system: "Sistema",
    ip: "Dirección IP",
    unknown: "desconocido",
    advice: "Si has sido tú, no tienes que hacer nada. Si no, otra persona puede iniciar sesión como tú: cierra esa sesión y cambia tu contraseña de inmediato.",
    action: "Revisar sesiones y contraseña",
    security: "Después, revisa la verificación en dos pasos y tus llaves de acceso en la página Seguridad",
  },
};
