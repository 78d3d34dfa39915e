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
    subject: "Confirma tu nueva dirección de correo",
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
};
