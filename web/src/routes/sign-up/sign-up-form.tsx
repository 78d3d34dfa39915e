import { useTranslation } from "react-i18next";
import { Alert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { Form } from "../../components/ui/form";
import { PasswordField } from "../../components/ui/password-field";
import { TextField } from "../../components/ui/text-field";
import { UsernameField } from "../../components/username-field";
import { authClient } from "../../lib/auth-client";
import { useForm } from "../../lib/use-form";
import { passwordLengthProblem, usePasswordBounds } from "../../lib/use-password-bounds";
import { useUsernameAvailability } from "../../lib/use-username-availability";
import { useUsernameBounds } from "../../lib/use-username-bounds";
import { usernameProblem, usernameProblemMessage } from "../../lib/username-rules";
import { looksLikeEmail } from "../../lib/validation";

type Values = Record<"name" | "email" | "username" | "password", string>;

/** Server codes that belong to one field; anything else is shown above the form. */
const FIELD_OF_CODE: Partial<Record<string, keyof Values>> = {
  INVALID_EMAIL: "email",
  USER_ALREADY_EXISTS: "email",
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: "email",
  PASSWORD_TOO_SHORT: "password",
  PASSWORD_TOO_LONG: "password",
  INVALID_PASSWORD: "password",
  USERNAME_IS_ALREADY_TAKEN_PLEASE_TRY_ANOTHER: "username",
  USERNAME_IS_TOO_SHORT: "username",
  USERNAME_IS_TOO_LONG: "username",
  USERNAME_IS_INVALID: "username",
};

export interface SignUpFormProps {
  /** Called when the account exists but the service did not sign the visitor in. */
  onCreatedWithoutSession(email: string): void;
  /** Where the mailed verification link lands once used (the service's verify-email page by default). */
  callbackURL?: string | undefined;
}

export function SignUpForm({ onCreatedWithoutSession, callbackURL }: SignUpFormProps) {
  const { t } = useTranslation();
  const usernameBounds = useUsernameBounds();
  const passwordBounds = usePasswordBounds();
  const form = useForm<Values>(
    { name: "", email: "", username: "", password: "" },
    {
      validate: (values) => {
        const found: Partial<Values> = {};
        if (!values.name.trim()) found.name = t("validation.nameRequired");
        if (!values.email.trim()) found.email = t("validation.emailRequired");
        else if (!looksLikeEmail(values.email)) found.email = t("validation.emailInvalid");
        const problem = values.username ? usernameProblem(values.username, usernameBounds) : null;
        if (problem) found.username = usernameProblemMessage(t, problem, usernameBounds);
        else if (usernameAvailability === "taken") found.username = t("username.taken");
        if (!values.password) found.password = t("validation.passwordRequired");
        else {
          const problem = passwordLengthProblem(t, values.password, passwordBounds);
          if (problem) found.password = problem;
        }
        return found;
      },
      placement: { codes: FIELD_OF_CODE },
    },
  );
  // Optional: an empty username is not sent. Sent as typed (the service stores it in lower case and keeps
  // the typed form as displayUsername); spaces break the rules and are flagged rather than trimmed away.
  const usernameAvailability = useUsernameAvailability(form.values.username, { bounds: usernameBounds });

  const onSubmit = form.onSubmit(async (values) => {
    const email = values.email.trim();
    const { data, error } = await authClient.signUp.email({
      name: values.name.trim(),
      email,
      password: values.password,
      ...(values.username ? { username: values.username } : {}),
      ...(callbackURL ? { callbackURL } : {}),
    });
    if (error) return error;
    if (data.token === null) return onCreatedWithoutSession(email);
    // Signed in: once the session store has it, the guest-only route moves on to the app.
    await authClient.$session.refetch();
  });

  return (
    <Form ref={form.ref} onSubmit={onSubmit}>
      {form.error ? (
        <Alert variant="error" focusable>
          {form.error}
        </Alert>
      ) : null}
      <TextField label={t("signUp.name")} name="name" autoComplete="name" required {...form.field("name")} />
      <TextField
        label={t("signUp.email")}
        type="email"
        name="email"
        autoComplete="email"
        inputMode="email"
        spellCheck={false}
        required
        {...form.field("email")}
      />
      <UsernameField
        {...form.field("username")}
        name="username"
        labelSuffix={`(${t("common.optional")})`}
        bounds={usernameBounds}
        availability={usernameAvailability}
        onChange={(value) => form.set("username", value)}
      />
      <PasswordField
        label={t("signUp.password")}
        hint={t("signUp.passwordHint", { min: passwordBounds.minLength })}
        revealLabel={t("common.showPassword")}
        name="password"
        autoComplete="new-password"
        minLength={passwordBounds.minLength}
        maxLength={passwordBounds.maxLength}
        required
        {...form.field("password")}
      />
      <Button type="submit" fullWidth loading={form.submitting} loadingText={t("signUp.submitting")}>
        {t("signUp.submit")}
      </Button>
    </Form>
  );
}
