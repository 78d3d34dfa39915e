import { useState } from "react";
import { useNavigate } from "react-router";
import { useTranslation } from "react-i18next";
import { PageHeading } from "../../components/page-heading";
import { Alert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { Form } from "../../components/ui/form";
import { TextField } from "../../components/ui/text-field";
import { mutations, queries, useQuery } from "../../lib/data";
import { slugify } from "../../lib/organizations";
import { useDebounced } from "../../lib/use-debounced";
import { useDocumentTitle } from "../../lib/use-document-title";
import { useForm } from "../../lib/use-form";
import styles from "./new-organization-page.module.css";

type SlugState = "idle" | "checking" | "available" | "taken";
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** The server's codes for a slug that another organization already has. */
const SLUG_TAKEN_CODES = ["ORGANIZATION_ALREADY_EXISTS", "SLUG_IS_TAKEN", "ORGANIZATION_SLUG_ALREADY_TAKEN"];

export function NewOrganizationPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  useDocumentTitle(t("organization.create.title"));
  const form = useForm(
    { name: "", slug: "" },
    {
      validate: ({ name, slug }) => {
        const found: { name?: string; slug?: string } = {};
        if (!name.trim()) found.name = t("organization.create.nameRequired");
        if (!SLUG.test(slug)) found.slug = t("organization.create.slugInvalid");
        else if (slugState === "taken") found.slug = t("organization.create.slugTaken");
        return found;
      },
      placement: {
        codes: Object.fromEntries(SLUG_TAKEN_CODES.map((code) => [code, "slug" as const])),
        messages: Object.fromEntries(SLUG_TAKEN_CODES.map((code) => [code, t("organization.create.slugTaken")])),
      },
    },
  );
  const { slug } = form.values;
  const [slugEdited, setSlugEdited] = useState(false);
  // A slug the service refused on submit though the check had said it was free.
  const [refusedSlug, setRefusedSlug] = useState<string | null>(null);

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

  const onSubmit = form.onSubmit(async ({ name, slug }) => {
    const { error } = await mutations.createOrganization({ name: name.trim(), slug });
    if (!error) return void navigate("/organization");
    // Taken since the check said free: the check's answer is stale, so it goes with the error.
    if (SLUG_TAKEN_CODES.includes(error.code)) setRefusedSlug(slug);
    return error;
  });

  const slugError = form.errors.slug ?? (slugState === "taken" ? t("organization.create.slugTaken") : undefined);
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
      <Form ref={form.ref} onSubmit={onSubmit}>
        <Card
          footer={
            <Button type="submit" loading={form.submitting} loadingText={t("organization.create.submitting")}>
              {t("organization.create.submit")}
            </Button>
          }
        >
          <div className={styles.fields}>
            {form.error ? (
              <Alert variant="error" focusable>
                {form.error}
              </Alert>
            ) : null}
            <TextField
              label={t("organization.create.name")}
              name="name"
              required
              {...form.field("name")}
              onChange={(event) => {
                form.set("name", event.target.value);
                if (!slugEdited) form.set("slug", slugify(event.target.value));
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
                form.set("slug", event.target.value.toLowerCase());
                setSlugEdited(true);
              }}
            />
          </div>
        </Card>
      </Form>
    </div>
  );
}
