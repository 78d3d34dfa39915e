import { useState } from "react";
import { useNavigate } from "react-router";
import { useTranslation } from "react-i18next";
import { authClient } from "../lib/auth-client";
import { Button, type ButtonProps } from "./ui/button";

// Set from the click on "Sign out" until the signed-out pages show. The session store empties before this
// button's own navigation lands, and RequireSession re-renders meanwhile (React may render the store's change
// before the router's): it must then send the visitor on as this button would, not remember the page being
// left as one to come back to after signing in.
let signingOut = false;

/** Whether this tab is on its way out through the button below. */
export function isSigningOut(): boolean {
  return signingOut;
}

/** Called by the signed-out pages once they show. */
export function signOutFinished(): void {
  signingOut = false;
}

/** The sign-in page's location state that makes it say "You've been signed out". */
export const SIGNED_OUT = { signedOut: true } as const;

/** Signs out on this device and lands on the sign-in page with a confirmation. */
export function SignOutButton(props: Pick<ButtonProps, "variant" | "size" | "fullWidth">) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);

  async function signOut() {
    setPending(true);
    signingOut = true;
    // Signing out also works without a session, so a failure here can only be the network; the
    // session read below then decides what the visitor sees.
    const { error } = await authClient.signOut();
    if (error) signingOut = false;
    await authClient.$session.refetch();
    await navigate("/sign-in", { replace: true, state: SIGNED_OUT });
  }

  return (
    <Button variant="secondary" {...props} loading={pending} loadingText={t("nav.signingOut")} onClick={() => void signOut()}>
      {t("nav.signOut")}
    </Button>
  );
}
