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
    subject: "E-posta adresinizin değiştirilmesini onaylayın",
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
  passwordChanged: {
    subject: "Parolanız değiştirildi",
    intro: "{email} hesabınızın parolası az önce değiştirildi.",
    advice: "Bunu siz yaptıysanız başka bir şey yapmanız gerekmez. Siz yapmadıysanız parolanızı başka biri biliyor olabilir: hemen aşağıdaki düğmeyle yeni bir parola belirleyin ve hesabınızın oturumlarını kontrol edin.",
    action: "Parolamı sıfırla",
  },
  emailChanged: {
    subject: "E-posta adresiniz değiştirildi",
    intro: "Hesabınızın e-posta adresi {email} yerine {newEmail} olarak değiştirildi. Bu hesapla ilgili e-postalar artık bu adrese gelmeyecek.",
    advice: "Bunu siz yaptıysanız başka bir şey yapmanız gerekmez. Siz yapmadıysanız hesabınıza başka biri erişiyor olabilir: hemen {appName} yöneticisiyle iletişime geçin. Parola sıfırlama bağlantıları artık yeni adrese gönderiliyor.",
  },
  magicLink: {
    subject: "Giriş bağlantınız",
    intro: "{appName} hizmetine {email} olarak giriş yapmak için aşağıdaki düğmeyi kullanın. Bağlantı yalnızca bir kez çalışır.",
    action: "Giriş yap",
  },
  codes: {
    signIn: {
      subject: "Giriş kodunuz",
      intro: "{appName} hizmetine {email} olarak giriş yapmak için bu kodu girin:",
    },
    emailVerification: {
      subject: "Doğrulama kodunuz",
      intro: "{email} e-posta adresinizi doğrulamak için bu kodu girin:",
    },
    forgetPassword: {
      subject: "Şifre sıfırlama kodunuz",
      intro: "{email} hesabınız için yeni bir şifre belirlemek üzere bu kodu girin:",
    },
    changeEmail: {
      subject: "Yeni e-posta adresinizi onaylayın",
      intro: "{email} adresini hesabınızın e-posta adresi yapmak için bu kodu girin:",
    },
    twoFactorSignIn: {
      subject: "Giriş doğrulama kodunuz",
      intro: "Az önce biri {appName} hizmetine {email} olarak giriş yapmaya başladı. Bu siz değilseniz parolanızı hemen değiştirin. Girişi tamamlamak için bu kodu girin:",
    },
    twoFactorEnrol: {
      subject: "Giriş kodlarını e-postayla almayı onaylayın",
      intro: "{appName} giriş kodlarınızı {email} adresine almak için bu kodu girin:",
    },
  },
  codeExpires: "Kod {duration} boyunca geçerlidir ve yalnızca bir kez çalışır.",
  codeNeverShare: "Bu kodu kimseyle paylaşmayın: {appName} sizden asla bu kodu istemez.",
  newDevice: {
    subject: "{appName} hesabınızda yeni oturum açıldı",
    intro: "{email} hesabınızda, daha önce kullanılmadığı bir tarayıcıdan az önce oturum açıldı.",
    when: "Ne zaman",
    browser: "Tarayıcı",
    system: "Sistem",
    ip: "IP adresi",
    unknown: "bilinmiyor",
    advice: "Bunu siz yaptıysanız bir şey yapmanız gerekmez. Siz yapmadıysanız başka biri sizin adınıza oturum açabiliyor: o oturumu hemen kapatın ve parolanızı değiştirin.",
    action: "Oturumları ve parolayı gözden geçir",
    security: "Ardından Güvenlik sayfasında iki adımlı girişinizi ve geçiş anahtarlarınızı kontrol edin",
  },
};
