import type { AuthError } from "@gatehouse/client";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { Checkbox } from "../../components/ui/checkbox";
import { Form } from "../../components/ui/form";
import { Radio } from "../../components/ui/radio";
import { Select } from "../../components/ui/select";
import { TextArea } from "../../components/ui/text-area";
import { TextField } from "../../components/ui/text-field";
import { errorMessage } from "../../lib/auth-errors";
import { useForm, type FieldErrors } from "../../lib/use-form";
import { scopeText } from "../oauth-consent/scope-text";
import { issuesOf, lines, USER_SCOPES, withType, words, type ClientDraft, type ClientType, type DraftField } from "./client-draft";
import styles from "./admin-applications.module.css";

const TYPES: readonly ClientType[] = ["web", "public", "machine"];

export interface ClientFormProps {
  /** `create` asks for the type and an optional client ID too; `edit` changes a client's settings. */
  mode: "create" | "edit";
  initial: ClientDraft;
  /** Sends the form; answers the service's refusal (placed on the form's fields), or null once done. */
  send(draft: ClientDraft): Promise<AuthError | null>;
  onCancel(): void;
}

/**
 * A client's settings (README "OpenID Provider", "Clients"), to register one or change one: its name and type;
 * for clients that sign users in, the redirect URIs, first-party, refresh tokens, the scopes users are asked for
 * (in the words of the consent page) and the consent page's links; API scopes, access-token format, APIs and
 * the ID token's signature. The service checks every value; its refusals are shown beside their field, each in the
 * user's language, with the value it refused.
 */
export function ClientForm({ mode, initial, send, onCancel }: ClientFormProps) {
  const { t } = useTranslation();
  const typeName = useId();
  const form = useForm<ClientDraft>(initial, {
    validate(values) {
      const errors: FieldErrors<keyof ClientDraft & string> = {};
      if (!values.name.trim()) errors.name = t("admin.applications.form.nameRequired");
      if (values.type !== "machine" && lines(values.redirectURLs).length === 0) errors.redirectURLs = t("admin.applications.form.redirectRequired");
      if (values.type === "machine" && words(values.apiScopes).length === 0) errors.apiScopes = t("admin.applications.form.apiScopesRequired");
      return errors;
    },
  });
  const draft = form.values;
  const users = draft.type !== "machine";

  /** The sentence for a refused value of `field`. */
  function rejected(field: DraftField, value: string | undefined, values: ClientDraft): string {
    switch (field) {
      case "name":
        return t("admin.applications.form.nameRejected");
      case "clientId":
        return t("admin.applications.form.clientIdRejected");
      case "redirectURLs":
      case "postLogoutRedirectURLs":
        if (value === undefined) return t("admin.applications.form.redirectRequired");
        return values.type === "public"
          ? t("admin.applications.form.redirectRejectedPublic", { url: value })
          : t("admin.applications.form.redirectRejected", { url: value });
      case "apiScopes":
        if (value === undefined) return values.type === "machine" ? t("admin.applications.form.apiScopesRequired") : t("validation.fieldRejected");
        return (USER_SCOPES as readonly string[]).includes(value)
          ? t("admin.applications.form.userScopeForMachine", { scope: value })
          : t("admin.applications.form.scopeRejected", { scope: value });
      case "audience":
        return value === undefined ? t("validation.fieldRejected") : t("admin.applications.form.audienceRejected", { uri: value });
      default:
        return t("admin.applications.form.urlRejected");
    }
  }

  async function submit(values: ClientDraft): Promise<AuthError | null> {
    const error = await send(values);
    if (!error) return null;
    if (error.code === "OIDC_CLIENT_ID_IS_TAKEN") {
      form.fail({ clientId: errorMessage(t, error) });
      return null;
    }
    if (error.code !== "VALIDATION_ERROR") return error;
    const fields: FieldErrors<keyof ClientDraft & string> = {};
    let other: string | null = null;
    for (const issue of issuesOf(error, values)) {
      if (issue.field) fields[issue.field] ??= rejected(issue.field, issue.value, values);
      else other = issue.path === "grantTypes" ? t("admin.applications.form.grantsRejected") : errorMessage(t, error);
    }
    if (Object.keys(fields).length === 0 && other === null) other = errorMessage(t, error);
    form.fail(fields, other);
    return null;
  }

  const toggleScope = (scope: (typeof USER_SCOPES)[number], on: boolean) =>
    form.set(
      "userScopes",
      USER_SCOPES.filter((s) => (s === scope ? on : draft.userScopes.includes(s))),
    );

  return (
    <Form ref={form.ref} className={styles.form} onSubmit={form.onSubmit(submit)}>
      {form.error ? (
        <Alert variant="error" focusable>
          {form.error}
        </Alert>
      ) : null}
      <TextField
        label={t("admin.applications.form.name")}
        hint={t("admin.applications.form.nameHint")}
        maxLength={128}
        autoComplete="off"
        required
        {...form.field("name")}
      />
      {mode === "create" ? (
        <fieldset className={styles.section}>
          <legend className={styles.legend}>{t("admin.applications.form.type")}</legend>
          <div className={styles.choices}>
            {TYPES.map((type) => (
              <Radio
                key={type}
                name={typeName}
                label={t(`admin.applications.type_${type}`)}
                hint={t(`admin.applications.typeHint_${type}`)}
                checked={draft.type === type}
                onChange={() => form.reset(withType(form.values, type))}
              />
            ))}
          </div>
        </fieldset>
      ) : null}
      {mode === "create" ? (
        <TextField
          label={t("admin.applications.form.clientId")}
          labelSuffix={t("admin.applications.form.optional")}
          hint={t("admin.applications.form.clientIdHint")}
          maxLength={128}
          autoComplete="off"
          spellCheck={false}
          {...form.field("clientId")}
        />
      ) : null}

      {users ? (
        <fieldset className={styles.section}>
          <legend className={styles.legend}>{t("admin.applications.form.signIn")}</legend>
          <TextArea
            label={t("admin.applications.form.redirectURLs")}
            hint={draft.type === "public" ? t("admin.applications.form.redirectHintPublic") : t("admin.applications.form.redirectHint")}
            spellCheck={false}
            autoComplete="off"
            required
            {...form.field("redirectURLs")}
          />
          <TextArea
            label={t("admin.applications.form.logoutURLs")}
            labelSuffix={t("admin.applications.form.optional")}
            hint={t("admin.applications.form.logoutHint")}
            rows={2}
            spellCheck={false}
            autoComplete="off"
            {...form.field("postLogoutRedirectURLs")}
          />
          <div className={styles.choices}>
            <Checkbox
              label={t("admin.applications.form.skipConsent")}
              hint={t("admin.applications.form.skipConsentHint")}
              checked={draft.skipConsent}
              onChange={(event) => form.set("skipConsent", event.target.checked)}
            />
            <Checkbox
              label={t("admin.applications.form.refreshTokens")}
              hint={t("admin.applications.form.refreshTokensHint")}
              checked={draft.refreshTokens}
              onChange={(event) => form.set("refreshTokens", event.target.checked)}
            />
            {draft.type === "web" ? (
              <Checkbox
                label={t("admin.applications.form.clientCredentials")}
                hint={t("admin.applications.form.clientCredentialsHint")}
                checked={draft.clientCredentials}
                onChange={(event) => form.set("clientCredentials", event.target.checked)}
              />
            ) : null}
          </div>
        </fieldset>
      ) : null}

      <fieldset className={styles.section}>
        <legend className={styles.legend}>{t("admin.applications.form.scopes")}</legend>
        {users ? (
          <>
            <p className={styles.sectionHint}>{t("admin.applications.form.scopesHint")}</p>
            <div className={styles.grid}>
              {USER_SCOPES.map((scope) => (
                <Checkbox
                  key={scope}
                  label={<code className={styles.mono}>{scope}</code>}
                  hint={scopeText(t, scope)}
                  checked={draft.userScopes.includes(scope)}
                  onChange={(event) => toggleScope(scope, event.target.checked)}
                />
              ))}
            </div>
          </>
        ) : null}
        <TextField
          label={t("admin.applications.form.apiScopes")}
          labelSuffix={users ? t("admin.applications.form.optional") : undefined}
          hint={t("admin.applications.form.apiScopesHint")}
          autoComplete="off"
          spellCheck={false}
          required={!users}
          {...form.field("apiScopes")}
        />
      </fieldset>

      <fieldset className={styles.section}>
        <legend className={styles.legend}>{t("admin.applications.form.tokens")}</legend>
        <Select<ClientDraft["accessTokenFormat"]>
          label={t("admin.applications.form.accessTokenFormat")}
          hint={t("admin.applications.form.accessTokenFormatHint")}
          options={[
            { value: "opaque", label: t("admin.applications.form.formatOpaque") },
            { value: "jwt", label: t("admin.applications.form.formatJwt") },
          ]}
          value={draft.accessTokenFormat}
          onChange={(value) => form.set("accessTokenFormat", value)}
        />
        <TextArea
          label={t("admin.applications.form.audience")}
          labelSuffix={t("admin.applications.form.optional")}
          hint={t("admin.applications.form.audienceHint")}
          rows={2}
          spellCheck={false}
          autoComplete="off"
          {...form.field("audience")}
        />
        {users ? (
          <Select<ClientDraft["signingAlg"]>
            label={t("admin.applications.form.signingAlg")}
            hint={t("admin.applications.form.signingAlgHint")}
            options={[
              { value: "RS256", label: "RS256" },
              { value: "ES256", label: "ES256" },
            ]}
            value={draft.signingAlg}
            onChange={(value) => form.set("signingAlg", value)}
          />
        ) : null}
      </fieldset>

      {users ? (
        <fieldset className={styles.section}>
          <legend className={styles.legend}>{t("admin.applications.form.consentPage")}</legend>
          <p className={styles.sectionHint}>{t("admin.applications.form.consentPageHint")}</p>
          <div className={styles.grid}>
            {(["logoUri", "clientUri", "policyUri", "tosUri"] as const).map((field) => (
              <TextField
                key={field}
                label={t(`admin.applications.form.${field}`)}
                labelSuffix={t("admin.applications.form.optional")}
                type="url"
                inputMode="url"
                autoComplete="off"
                spellCheck={false}
                placeholder="https://"
                {...form.field(field)}
              />
            ))}
          </div>
        </fieldset>
      ) : null}

      <div className={styles.buttons}>
        <Button
          type="submit"
          loading={form.submitting}
          loadingText={mode === "create" ? t("admin.applications.form.submitting") : t("admin.applications.form.saving")}
        >
          {mode === "create" ? t("admin.applications.form.submit") : t("admin.applications.form.save")}
        </Button>
        <Button variant="ghost" onClick={onCancel} disabled={form.submitting}>
          {t("admin.applications.form.cancel")}
        </Button>
      </div>
    </Form>
  );
}
