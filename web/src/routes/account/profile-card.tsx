import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useCurrentSession } from "../../components/current-session";
import { Alert } from "../../components/ui/alert";
import { Avatar } from "../../components/ui/avatar";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { Form } from "../../components/ui/form";
import { TextField } from "../../components/ui/text-field";
import { UsernameField } from "../../components/username-field";
import { mutations } from "../../lib/data";
import { useForm } from "../../lib/use-form";
import { useUsernameAvailability } from "../../lib/use-username-availability";
import { useUsernameBounds } from "../../lib/use-username-bounds";
import { usernameProblem, usernameProblemMessage } from "../../lib/username-rules";
import { isImageUrl } from "../../lib/validation";
import styles from "./profile-card.module.css";

type Values = { name: string; username: string; image: string };

/** Server codes about one field; anything else is shown at the top of the card. */
const FIELD_OF_CODE: Partial<Record<string, keyof Values>> = {
  USERNAME_IS_ALREADY_TAKEN_PLEASE_TRY_ANOTHER: "username",
  USERNAME_IS_TOO_SHORT: "username",
  USERNAME_IS_TOO_LONG: "username",
  USERNAME_IS_INVALID: "username",
};
const REQUEST_FIELDS: Partial<Record<string, keyof Values>> = { name: "name", username: "username", image: "image" };

export function ProfileCard() {
  const { t } = useTranslation();
  const { user } = useCurrentSession();
  // Shown as the user typed it (displayUsername); the service compares and stores it in lower case.
  const shownUsername = user.displayUsername ?? user.username ?? "";
  const usernameBounds = useUsernameBounds();
  const form = useForm<Values, "saved" | "unchanged">(() => ({ name: user.name, username: shownUsername, image: user.image ?? "" }), {
    validate: ({ name, username, image }) => {
      const found: Partial<Values> = {};
      if (!name.trim()) found.name = t("validation.nameRequired");
      if (username !== shownUsername) {
        const problem = username ? usernameProblem(username, usernameBounds) : null;
        // A username can be changed but not removed: the service has no way to clear it.
        if (!username) found.username = t("username.required");
        else if (problem) found.username = usernameProblemMessage(t, problem, usernameBounds);
        else if (usernameAvailability === "taken") found.username = t("username.taken");
      }
      if (image.trim() && !isImageUrl(image)) found.image = t("validation.imageInvalid");
      return found;
    },
    placement: { codes: FIELD_OF_CODE, requestFields: REQUEST_FIELDS },
  });
  const { name, username, image } = form.values;
  const usernameAvailability = useUsernameAvailability(username, { bounds: usernameBounds, own: user.username });

  const previewImage = isImageUrl(image) ? image.trim() : null;
  // Whether the preview's picture loaded: a picture that cannot be shown (gone, not an image, refused by its
  // site) is said beside the field, not only hidden behind the initials.
  // Kept per address: the avatar does not try an address that failed once again, so typing it again must still say so.
  const [imageStatus, setImageStatus] = useState<Record<string, "loaded" | "failed">>({});
  const imageFailed = previewImage !== null && imageStatus[previewImage] === "failed";

  const onSubmit = form.onSubmit(async ({ name, username, image }) => {
    const changes: { name?: string; username?: string; image?: string | null } = {};
    if (name.trim() !== user.name) changes.name = name.trim();
    // Also a change of case only ("bob" to "Bob"): the username stays, the way it is shown changes.
    if (username !== shownUsername) changes.username = username;
    if ((image.trim() || null) !== user.image) changes.image = image.trim() || null;
    if (Object.keys(changes).length === 0) return form.succeed("unchanged");
    const { error } = await mutations.updateUser(changes);
    if (error) return error;
    // The session store re-reads the user after update-user, so the header and home page follow.
    form.succeed("saved");
  });

  return (
    <Form ref={form.ref} onSubmit={onSubmit}>
      <Card
        title={t("account.profile.heading")}
        description={t("account.profile.description")}
        footer={
          <>
            {/* Always present, so the change of text is announced. */}
            <p className={form.notice === "saved" ? styles.saved : styles.note} role="status">
              {form.notice === "saved" ? t("account.profile.saved") : null}
              {form.notice === "unchanged" ? t("account.profile.noChanges") : null}
            </p>
            <Button type="submit" loading={form.submitting} loadingText={t("account.profile.saving")}>
              {t("account.profile.save")}
            </Button>
          </>
        }
      >
        <div className={styles.layout}>
          {/* A live preview of the picture; on phones it also shows the name, as a small profile header. */}
          <div className={styles.preview} aria-hidden="true">
            <Avatar
              name={name || user.name}
              image={previewImage}
              size="lg"
              onImageStatus={(status) => {
                if (previewImage) setImageStatus((known) => ({ ...known, [previewImage]: status }));
              }}
            />
            <div className={styles.previewText}>
              <span className={styles.previewName}>{name.trim() || user.name}</span>
              <span className={styles.previewEmail}>{user.email}</span>
            </div>
          </div>
          <div className={styles.fields}>
            {form.error ? (
              <Alert variant="error" focusable>
                {form.error}
              </Alert>
            ) : null}
            <TextField
              label={t("account.profile.name")}
              name="name"
              autoComplete="name"
              required
              {...form.field("name")}
            />
            <UsernameField
              name="username"
              labelSuffix={user.username ? undefined : `(${t("common.optional")})`}
              hint={t("username.profileHint", { min: usernameBounds.minLength, max: usernameBounds.maxLength })}
              bounds={usernameBounds}
              availability={usernameAvailability}
              value={username}
              error={form.errors.username}
              onChange={(value) => form.set("username", value)}
            />
            <TextField
              label={t("account.profile.image")}
              labelSuffix={`(${t("common.optional")})`}
              hint={t("account.profile.imageHint")}
              name="image"
              type="url"
              inputMode="url"
              autoComplete="photo"
              spellCheck={false}
              status={imageFailed ? t("account.profile.imageFailed") : ""}
              {...form.field("image")}
            />
            <TextField
              label={t("account.profile.email")}
              hint={t("account.profile.emailHint")}
              type="email"
              value={user.email}
              readOnly
            />
          </div>
        </div>
      </Card>
    </Form>
  );
}
