import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from "react";
import styles from "./radio.module.css";

export interface RadioProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "type"> {
  label: ReactNode;
  /** A line under the label, linked to the input with aria-describedby. */
  hint?: ReactNode;
  ref?: Ref<HTMLInputElement>;
}

/** One choice of a group; put the group in a <fieldset> with a <legend>. */
export function Radio({ label, hint, className, ref, ...inputProps }: RadioProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div className={[styles.row, className ?? ""].filter(Boolean).join(" ")}>
      <input ref={ref} id={id} type="radio" className={styles.input} aria-describedby={hintId} {...inputProps} />
      <div className={styles.text}>
        <label htmlFor={id} className={styles.label}>
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
