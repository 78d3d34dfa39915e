import { useRef, useState, type FormEvent } from "react";
import { useNavigate } from "react-router";
import { useTranslation } from "react-i18next";
import { PageHeading } from "../../components/page-heading";
import { Alert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { Form } from "../../components/ui/form";
import { TextField } from "../../components/ui/text-field";
import { errorMessage } from "../../lib/auth-errors";
import { mutations, queries, useQuery } from "../../lib/data";
import { slugify } from "../../lib/organizations";
import { useDebounced } from "../../lib/use-debounced";
import { useDocumentTitle } from "../../lib/use-document-title";
import { useFocusFirstError } from "../../lib/use-focus-first-error";
import styles from "./new-organization-page.module.css";

type SlugState = "idle" | "checking" | "available" | "taken";
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** The server's codes for a slug that another organization already has. */
const SLUG_TAKEN_CODES = new Set(["ORGANIZATION_ALREADY_EXISTS", "SLUG_IS_TAKEN", "ORGANIZATION_SLUG_ALREADY_TAKEN"]);

export function NewOrganizationPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  useDocumentTitle(t("organization.create.title"));
  const formRef = useRef<HTMLFormElement>(null);
  const [name, setName] = useState("");
  const [slug, setSlug] = useState("");
  const [slugEdited, setSlugEdited] = useState(false);
  // A slug the service refused on submit though the check had said it was free.
  const [refusedSlug, setRefusedSlug] = useState<string | null>(null);
  const [errors, setErrors] = useState<{ name?: string; slug?: string }>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [attempt, setAttempt] = useState(0);
  useFocusFirstError(formRef, attempt);

  // The slug is checked while typing, once the typing pauses.
  const checkedSlug = useDebounced(slug, 350);
  const check = useQuery(SLUG.test(checkedSlug) ? queries.slugAvailable(checkedSlug) : null);
  let slugState: SlugState;
  if (!SLUG.test(slug)) slugState = "idle";
  else if (slug === refusedSlug) slugState = "taken";
  else if (checkedSlug !== slug || check.state === "loading") slugState = "checking";
  // A check that could not ask (the network) says nothing either way: submitting will tell.
  else if (check.state === "failed") slugState = "idle";
  else slugState = check.data ? "available" : "taken";

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving) return;
    const found: typeof errors = {};
    if (!name.trim()) found.name = t("organization.create.nameRequired");
    if (!SLUG.test(slug)) found.slug = t("organization.create.slugInvalid");
    else if (slugState === "taken") found.slug = t("organization.create.slugTaken");
    setErrors(found);
    setFormError(null);
    if (Object.keys(found).length > 0) return setAttempt((n) => n + 1);
    setSaving(true);
    const { error } = await mutations.createOrganization({ name: name.trim(), slug });
    setSaving(false);
    if (error) {
      // Taken since the check said free: the check's answer is stale, so it goes with the error.
      if (SLUG_TAKEN_CODES.has(error.code)) {
        setRefusedSlug(slug);
        setErrors({ slug: t("organization.create.slugTaken") });
      } else setFormError(errorMessage(t, error));
      setAttempt((n) => n + 1);
      return;
    }
    void navigate("/organization");
  }

  const slugError = errors.slug ?? (slugState === "taken" ? t("organization.create.slugTaken") : undefined);
  // The hint never contradicts the error beside it: with an error it only gives the rules.
  const slugHint = slugError
    ? t("organization.create.slugHint")
    : slugState === "checking"
      ? t("organization.create.slugChecking")
      : slugState === "available"
        ? t("organization.create.slugAvailable")
        : t("organization.create.slugHint");

  return (
    <div className={styles.page}>
      <PageHeading lead={t("organization.create.lead")}>{t("organization.create.heading")}</PageHeading>
      <Form ref={formRef} onSubmit={(event) => void onSubmit(event)}>
        <Card
          footer={
            <Button type="submit" loading={saving} loadingText={t("organization.create.submitting")}>
              {t("organization.create.submit")}
            </Button>
          }
        >
          <div className={styles.fields}>
            {formError ? (
              <Alert variant="error" focusable>
                {formError}
              </Alert>
            ) : null}
            <TextField
              label={t("organization.create.name")}
              name="name"
              required
              value={name}
              error={errors.name}
              onChange={(event) => {
                setName(event.target.value);
                if (!slugEdited) setSlug(slugify(event.target.value));
                setErrors(({ name: _n, ...rest }) => rest);
              }}
            />
            <TextField
              label={t("organization.create.slug")}
              name="slug"
              required
              spellCheck={false}
              autoCapitalize="off"
              value={slug}
              hint={<span aria-live="polite">{slugHint}</span>}
              error={slugError}
              onChange={(event) => {
                setSlug(event.target.value.toLowerCase());
                setSlugEdited(true);
                setErrors(({ slug: _s, ...rest }) => rest);
              }}
            />
          </div>
        </Card>
      </Form>
    </div>
  );
}
