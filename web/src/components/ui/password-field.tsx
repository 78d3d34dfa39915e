import { useState } from "react";
import { TextField, type TextFieldProps } from "./text-field";
import styles from "./password-field.module.css";

export interface PasswordFieldProps extends Omit<TextFieldProps, "type" | "action"> {
  /** The show-password button's name ("Show password"); the button says whether it is on with aria-pressed. */
  revealLabel: string;
}

/**
 * A password input whose text can be shown on request: a toggle button inside the field, named by
 * `revealLabel` and pressed while the password is shown. Typing is never interrupted: the button only
 * switches the input between `password` and `text`.
 */
export function PasswordField({ revealLabel, ...props }: PasswordFieldProps) {
  const [shown, setShown] = useState(false);
  return (
    <TextField
      {...props}
      type={shown ? "text" : "password"}
      // Shown text must not be checked or remembered as ordinary text.
      spellCheck={false}
      autoCapitalize="off"
      autoCorrect="off"
      action={
        <button
          type="button"
          className={styles.toggle}
          aria-label={revealLabel}
          aria-pressed={shown}
          title={revealLabel}
          onClick={() => setShown((value) => !value)}
        >
          <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <path
              d="M2.75 12s3.25-6.25 9.25-6.25S21.25 12 21.25 12 18 18.25 12 18.25 2.75 12 2.75 12Z"
              fill="none"
              stroke="currentColor"
              strokeWidth="1.75"
              strokeLinejoin="round"
            />
            <circle cx="12" cy="12" r="2.75" fill="none" stroke="currentColor" strokeWidth="1.75" />
            {shown ? null : <path d="M4 20 20 4" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" />}
          </svg>
        </button>
      }
    />
  );
}
