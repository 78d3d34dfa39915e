import { useId } from "react";
import { useTranslation } from "react-i18next";
import { Checkbox } from "../../components/ui/checkbox";
import { Radio } from "../../components/ui/radio";
import { EVENT_NOUNS } from "../../lib/event-types";
import { useEventText } from "../../lib/use-event-text";
import { typesOf, type EventChoice } from "./event-filter";
import styles from "./admin-webhooks.module.css";

export interface EventPickerProps {
  value: EventChoice;
  onChange(value: EventChoice): void;
  /** Shown when "Chosen events" names none. */
  error?: string | undefined;
}

/**
 * Which events an endpoint gets: every event (kinds added later too), or chosen ones: a whole kind ("every event
 * of Accounts", sent as `user.*`) or single events. A chosen kind checks and locks its events.
 */
export function EventPicker({ value, onChange, error }: EventPickerProps) {
  const { t } = useTranslation();
  const text = useEventText();
  const name = useId();
  const errorId = useId();

  const toggle = (set: "nouns" | "types", item: string, on: boolean) => {
    const next = new Set(value[set]);
    if (on) next.add(item);
    else next.delete(item);
    onChange({ ...value, [set]: next });
  };

  return (
    <fieldset className={styles.picker} aria-describedby={error ? errorId : undefined}>
      <legend className={styles.legend}>{t("admin.webhooks.create.events")}</legend>
      <div className={styles.modes}>
        <Radio
          name={name}
          label={t("admin.webhooks.create.everyEvent")}
          hint={t("admin.webhooks.create.everyEventHint")}
          checked={value.every}
          onChange={() => onChange({ ...value, every: true })}
        />
        <Radio
          name={name}
          label={t("admin.webhooks.create.chosenEvents")}
          hint={t("admin.webhooks.create.chosenEventsHint")}
          checked={!value.every}
          onChange={() => onChange({ ...value, every: false })}
        />
      </div>
      {error ? (
        <p id={errorId} className={styles.pickerError} role="alert">
          {error}
        </p>
      ) : null}
      {!value.every ? (
        <div className={styles.kinds}>
          {EVENT_NOUNS.map((noun) => {
            const whole = value.nouns.has(noun);
            return (
              <fieldset key={noun} className={styles.kind}>
                <legend className={styles.kindName}>{t(`activity.nouns.${noun}`)}</legend>
                <Checkbox
                  label={t("admin.webhooks.create.wholeKind")}
                  checked={whole}
                  onChange={(event) => toggle("nouns", noun, event.target.checked)}
                />
                <div className={styles.kindTypes}>
                  {typesOf(noun).map((type) => (
                    <Checkbox
                      key={type}
                      label={text.label(type)}
                      checked={whole || value.types.has(type)}
                      disabled={whole}
                      onChange={(event) => toggle("types", type, event.target.checked)}
                    />
                  ))}
                </div>
              </fieldset>
            );
          })}
        </div>
      ) : null}
    </fieldset>
  );
}
