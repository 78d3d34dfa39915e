import type { MailCatalog } from "./types.js";

export const tr: MailCatalog = {
  greeting: "Merhaba {name},",
  expires: "Bağlantı {duration} boyunca geçerlidir.",
  linkHint: "Düğme çalışmazsa bu bağlantıyı tarayıcınıza kopyalayın:",
  ignore: "Bu isteği siz yapmadıysanız bu e-postayı yok sayabilirsiniz.",
  signature: "{appName} ekibi",
  verification: {
    subject: "E-posta adresinizi doğrulayın",
    intro: "Lütfen {email} adresinin size ait olduğunu onaylayın.",
    action: "E-postayı doğrula",
  },
  resetPassword: {
    subject: "Şifrenizi sıfırlayın",
    intro: "Hesabınızın şifresini sıfırlamak için bir istek aldık.",
    action: "Yeni şifre belirle",
  },
  changeEmail: {
    subject: "Yeni e-posta adresinizi onaylayın",
    intro: "Hesabınızın e-posta adresini {newEmail} olarak değiştirmek istediniz. Değişikliği bu adresten onaylayın.",
    action: "Değişikliği onayla",
  },
  deleteAccount: {
    subject: "Hesabınızın silinmesini onaylayın",
    intro: "Hesabınızı silmek istediniz.",
    action: "Hesabımı sil",
    warning: "Bu işlem geri alınamaz: profiliniz, oturumlarınız ve bağlı hesaplarınız silinecek.",
  },
  invitation: {
    subject: "{inviterName} sizi {organizationName} organizasyonuna davet etti",
    intro: "{inviterName} ({inviterEmail}), sizi {appName} üzerindeki {organizationName} organizasyonuna katılmaya davet etti.",
    action: "Daveti görüntüle",
    ignore: "Bu daveti beklemiyorsanız bu e-postayı yok sayabilirsiniz.",
  },
};
