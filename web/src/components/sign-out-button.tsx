import { useState } from "react";
import { useNavigate } from "react-router";
import { useTranslation } from "react-i18next";
import { authClient } from "../lib/auth-client";
import { Button, type ButtonProps } from "./ui/button";

/** Signs out on this device and lands on the sign-in page with a confirmation. */
export function SignOutButton(props: Pick<ButtonProps, "variant" | "size" | "fullWidth">) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);

  async function signOut() {
    setPending(true);
    // Signing out also works without a session, so a failure here can only be the network; the
    // session read below then decides what the visitor sees.
    await authClient.signOut();
    await authClient.$session.refetch();
    await navigate("/sign-in", { replace: true, state: { signedOut: true } });
  }

  return (
    <Button variant="secondary" {...props} loading={pending} loadingText={t("nav.signingOut")} onClick={() => void signOut()}>
      {t("nav.signOut")}
    </Button>
  );
}
