import { useId, type ReactNode, type Ref, type SelectHTMLAttributes } from "react";
import styles from "./select.module.css";

export interface SelectOption<V extends string = string> {
  value: V;
  label: string;
}

export interface SelectProps<V extends string = string>
  extends Omit<SelectHTMLAttributes<HTMLSelectElement>, "id" | "value" | "onChange" | "children" | "size"> {
  /** The select's name; always given, so it is named for screen readers even when it is not shown. */
  label: ReactNode;
  /**
   * Keeps the label for screen readers only: for a select in a row that says what it is about (a member's role
   * beside their name), where a visible label would only repeat it.
   */
  hideLabel?: boolean;
  /** Shown under the label; linked to the select with aria-describedby. */
  hint?: ReactNode;
  options: readonly SelectOption<V>[];
  value: V;
  onChange(value: V): void;
  /** "sm" for selects in list rows, beside small buttons. */
  size?: "md" | "sm";
  ref?: Ref<HTMLSelectElement>;
}

/**
 * The one select of the app: a native <select> (keyboards, screen readers and phones handle it as they know
 * how) with its label, drawn like a text field. A select only chooses: a button beside it applies the choice,
 * or the form it is in is sent.
 */
export function Select<V extends string = string>({
  label,
  hideLabel = false,
  hint,
  options,
  value,
  onChange,
  size = "md",
  className,
  ref,
  ...rest
}: SelectProps<V>) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div className={[styles.field, styles[size], hideLabel ? styles.bare : "", className ?? ""].filter(Boolean).join(" ")}>
      <label htmlFor={id} className={hideLabel ? "visually-hidden" : styles.label}>
        {label}
      </label>
      {hint ? (
        <p id={hintId} className={styles.hint}>
          {hint}
        </p>
      ) : null}
      <div className={styles.control}>
        <select
          ref={ref}
          id={id}
          className={styles.select}
          aria-describedby={hintId}
          value={value}
          onChange={(event) => onChange(event.target.value as V)}
          {...rest}
        >
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        <svg className={styles.chevron} viewBox="0 0 16 16" aria-hidden="true" focusable="false">
          <path d="m4.5 6.25 3.5 3.5 3.5-3.5" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      </div>
    </div>
  );
}
