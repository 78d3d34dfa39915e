import { useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { useTranslation } from "react-i18next";
import { authClient } from "../../lib/auth-client";
import {
  cancelPasskeyCeremony,
  PASSKEY_BROWSER_ERRORS,
  passkeyAutofillSupported,
  passkeyErrorMessage,
  signInWithPasskey,
  type PasskeySignInResult,
} from "../../lib/passkeys";
import { isSecondStep, secondStepPath, type SecondStepState } from "../../lib/second-step";

export interface PasskeySignIn {
  /** The button: the browser's own passkey prompt. */
  start(): void;
  /** True while the prompt the button opened is up. */
  pending: boolean;
  /** Why the last try failed, as a sentence, or null. */
  error: string | null;
}

/**
 * Sign-in with a passkey on the sign-in page: the button's prompt, and the browser's autofill, which offers the
 * passkeys it holds for this site among the username field's suggestions (the field is marked
 * `autocomplete="username webauthn"`) and waits, from the page's first render, until one is picked. Opening the
 * prompt stops the autofill wait; a prompt that ends without signing in starts it again. A passkey that did not
 * verify its user leads to the second step like any first factor; otherwise the session store takes the new
 * session and the guest-only route moves on to `returnTo`.
 */
export function usePasskeySignIn(returnTo: string, enabled: boolean): PasskeySignIn {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const mounted = useRef(true);

  async function finish(result: PasskeySignInResult, autoFill: boolean): Promise<boolean> {
    if (!mounted.current) return true;
    if (result.error) {
      // A ceremony that gave way (to the button, to leaving the page) says nothing. Neither does the autofill, unless
      // the visitor picked a passkey the service then refused: until then it is a wait they never saw (a browser
      // without passkeys for this site, a site on an IP address, which WebAuthn refuses).
      if (result.error.code === PASSKEY_BROWSER_ERRORS.aborted || (autoFill && result.stage !== "verify")) return false;
      setError(passkeyErrorMessage(t, result.error));
      return false;
    }
    if (isSecondStep(result.data)) {
      const state: SecondStepState = { methods: result.data.twoFactorMethods };
      await navigate(secondStepPath(returnTo), { state });
      return true;
    }
    await authClient.$session.refetch();
    return true;
  }

  async function autofill() {
    if (!enabled || !(await passkeyAutofillSupported()) || !mounted.current) return;
    const result = await signInWithPasskey({ autoFill: true });
    await finish(result, true);
  }

  useEffect(() => {
    mounted.current = true;
    void autofill();
    return () => {
      mounted.current = false;
      void cancelPasskeyCeremony();
    };
    // Once the page shows (and again if the deployment's features arrive saying passkeys are on).
  }, [enabled]);

  function start() {
    setPending(true);
    setError(null);
    void signInWithPasskey().then(async (result) => {
      const done = await finish(result, false);
      if (!mounted.current) return;
      setPending(false);
      if (!done) void autofill();
    });
  }

  return { start, pending, error };
}
