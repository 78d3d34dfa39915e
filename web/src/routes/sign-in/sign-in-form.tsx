import { useState } from "react";
import { Link, useNavigate } from "react-router";
import { useTranslation } from "react-i18next";
import { Alert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { Checkbox } from "../../components/ui/checkbox";
import { Form } from "../../components/ui/form";
import { PasswordField } from "../../components/ui/password-field";
import { TextField } from "../../components/ui/text-field";
import { LastUsedBadge } from "../../components/last-used-badge";
import { authClient } from "../../lib/auth-client";
import { lastUsedMethod } from "../../lib/last-used-method";
import { isSecondStep, secondStepPath, type SecondStepState } from "../../lib/second-step";
import { useForm } from "../../lib/use-form";
import { isEmailIdentifier } from "../../lib/username-rules";
import { looksLikeEmail } from "../../lib/validation";
import { OtherSignInWays } from "./other-sign-in-ways";
import styles from "./sign-in-form.module.css";

/**
 * Server codes that are about one field. A wrong email, username or password stays form-level on purpose.
 * The username rules are checked on sign-in too, so a name that breaks them is said to be wrong beside it.
 */
const FIELD_OF_CODE = {
  INVALID_EMAIL: "identifier",
  USERNAME_IS_TOO_SHORT: "identifier",
  USERNAME_IS_TOO_LONG: "identifier",
  USERNAME_IS_INVALID: "identifier",
  PASSWORD_TOO_LONG: "password",
} as const;

export interface SignInFormProps {
  /** Where to go once signed in (through the second step when the user has one). */
  returnTo: string;
}

export function SignInForm({ returnTo }: SignInFormProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [lastUsed] = useState(lastUsedMethod);
  // An email address or a username: one with an "@" is an email address, since usernames cannot have one.
  // The notice is set when the service refused an unverified address (and mailed it a new link): an explanation,
  // not an error. It holds the address when the visitor typed it, "" when they signed in with a username (the
  // address is not ours to show).
  const form = useForm<{ identifier: string; password: string; rememberMe: boolean }, { unverifiedEmail: string }>(
    { identifier: "", password: "", rememberMe: true },
    {
      validate: ({ identifier, password }) => {
        const found: { identifier?: string; password?: string } = {};
        const value = identifier.trim();
        if (!value) found.identifier = t("username.identifierRequired");
        else if (isEmailIdentifier(value) && !looksLikeEmail(value)) found.identifier = t("validation.emailInvalid");
        if (!password) found.password = t("validation.passwordRequired");
        return found;
      },
      // A wrong email, username or password stays form-level.
      placement: { codes: FIELD_OF_CODE },
    },
  );
  const { identifier, rememberMe } = form.values;

  const onSubmit = form.onSubmit(async ({ identifier, password, rememberMe }) => {
    const value = identifier.trim();
    const byEmail = isEmailIdentifier(value);
    const { data, error } = byEmail
      ? await authClient.signIn.email({ email: value, password, rememberMe })
      : await authClient.signIn.username({ username: value, password, rememberMe });
    if (error?.code === "EMAIL_NOT_VERIFIED") {
      form.fail({});
      form.succeed({ unverifiedEmail: byEmail ? value : "" });
      return null;
    }
    if (error) return error;
    // A user with a second factor has no session yet: the second step comes first.
    if (isSecondStep(data)) {
      const state: SecondStepState = { methods: data.twoFactorMethods };
      await navigate(secondStepPath(returnTo), { state });
      return null;
    }
    // The session store now holds the new session; the guest-only route moves on to the app.
    await authClient.$session.refetch();
  });

  return (
    <>
      <Form ref={form.ref} onSubmit={onSubmit}>
        {form.error ? (
          <Alert variant="error" focusable>
            {form.error}
          </Alert>
        ) : null}
        {form.notice ? (
          <Alert variant="info" title={t("signIn.notVerifiedTitle")} focusable>
            {form.notice.unverifiedEmail ? t("signIn.notVerified", { email: form.notice.unverifiedEmail }) : t("username.notVerified")}
          </Alert>
        ) : null}
        <TextField
          {...form.field("identifier")}
          label={t("username.identifier")}
          name="username"
          // "webauthn": the browser offers its passkeys for this site among the suggestions (other-sign-in-ways.tsx).
          autoComplete="username webauthn"
          autoCapitalize="none"
          autoCorrect="off"
          spellCheck={false}
          required
        />
        <PasswordField
          label={t("signIn.password")}
          revealLabel={t("common.showPassword")}
          name="password"
          autoComplete="current-password"
          required
          {...form.field("password")}
        />
        <div className={styles.options}>
          <Checkbox
            label={t("signIn.rememberMe")}
            name="rememberMe"
            checked={rememberMe}
            onChange={(event) => form.set("rememberMe", event.target.checked)}
          />
          {/* After the checkbox, so the fields and the checkbox stay the first stops of the tab order. */}
          <Link
            to="/forgot-password"
            state={isEmailIdentifier(identifier) ? { email: identifier.trim() } : undefined}
            className={styles.forgot}
          >
            {t("signIn.forgotPassword")}
          </Link>
        </div>
        {lastUsed === "email" || lastUsed === "username" ? <LastUsedBadge /> : null}
        <Button type="submit" fullWidth loading={form.submitting} loadingText={t("signIn.submitting")}>
          {t("signIn.submit")}
        </Button>
      </Form>
      <OtherSignInWays
        returnTo={returnTo}
        email={isEmailIdentifier(identifier) && looksLikeEmail(identifier) ? identifier.trim() : ""}
      />
    </>
  );
}
