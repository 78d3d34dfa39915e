import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from "react";
import styles from "./choice.module.css";

export interface ChoiceProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "type"> {
  label: ReactNode;
  /** A line under the label, linked to the input with aria-describedby. */
  hint?: ReactNode;
  ref?: Ref<HTMLInputElement>;
}

/** The one layout of a checkbox or radio button: the box, then its label (and hint) beside it. */
export function Choice({
  type,
  label,
  hint,
  className,
  ref,
  ...inputProps
}: ChoiceProps & { type: "checkbox" | "radio" }) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div className={[styles.row, className ?? ""].filter(Boolean).join(" ")}>
      <input ref={ref} id={id} type={type} className={styles.input} aria-describedby={hintId} {...inputProps} />
      <div className={styles.text}>
        <label htmlFor={id} className={[styles.label, type === "radio" ? styles.strong : ""].filter(Boolean).join(" ")}>
          {label}
        </label>
        {hint ? (
          <p id={hintId} className={styles.hint}>
            {hint}
          </p>
        ) : null}
      </div>
    </div>
  );
}
