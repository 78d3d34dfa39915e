import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from "react";
import styles from "./text-field.module.css";

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "id"> {
  label: ReactNode;
  /** Shown under the label, always; linked to the input with aria-describedby. */
  hint?: ReactNode;
  /** When set, the input is marked invalid and the message is linked to it. */
  error?: ReactNode;
  /** Text after the label, such as "(optional)". */
  labelSuffix?: ReactNode;
  /**
   * A line under the input that changes while typing (the result of a check), announced politely. When the
   * prop is given the line is always there (empty takes no room), so changes are announced; an error hides it.
   */
  status?: ReactNode;
  /** A small control drawn inside the input's box, at its end (the show-password button of `PasswordField`). */
  action?: ReactNode;
  ref?: Ref<HTMLInputElement>;
}

export function TextField({ label, hint, error, labelSuffix, status, action, className, ref, ...inputProps }: TextFieldProps) {
  const ids = useFieldIds(hint, error);
  const control = (withAction: boolean) => (
    <input
      ref={ref}
      id={ids.id}
      className={withAction ? `${styles.input} ${styles.withAction}` : styles.input}
      aria-invalid={error ? true : undefined}
      aria-describedby={ids.describedBy}
      {...inputProps}
    />
  );
  return (
    <FieldFrame
      ids={ids}
      label={label}
      labelSuffix={labelSuffix}
      hint={hint}
      error={error}
      className={className}
      after={
        status !== undefined ? (
          <p className={styles.status} aria-live="polite">
            {error ? null : status}
          </p>
        ) : null
      }
    >
      {action ? (
        <div className={styles.control}>
          {control(true)}
          <div className={styles.action}>{action}</div>
        </div>
      ) : (
        control(false)
      )}
    </FieldFrame>
  );
}

export interface FieldIds {
  id: string;
  hintId: string | undefined;
  errorId: string | undefined;
  /** The error's and the hint's ids, for the control's aria-describedby. */
  describedBy: string | undefined;
}

/** A field's id and those of its hint and error (when shown), which the control names in aria-describedby. */
export function useFieldIds(hint: ReactNode, error: ReactNode): FieldIds {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return { id, hintId, errorId, describedBy: [errorId, hintId].filter(Boolean).join(" ") || undefined };
}

/**
 * What every field draws around its control (`TextField`, `TextArea`): the label (for the control's id), the hint
 * under it, the control, the error with its icon, then `after`.
 */
export function FieldFrame({
  ids,
  label,
  labelSuffix,
  hint,
  error,
  className,
  after,
  children,
}: {
  ids: FieldIds;
  label: ReactNode;
  labelSuffix?: ReactNode;
  hint?: ReactNode;
  error?: ReactNode;
  className?: string | undefined;
  after?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className={[styles.field, className ?? ""].filter(Boolean).join(" ")}>
      <label htmlFor={ids.id} className={styles.label}>
        {label}
        {labelSuffix ? <span className={styles.suffix}> {labelSuffix}</span> : null}
      </label>
      {hint ? (
        <p id={ids.hintId} className={styles.hint}>
          {hint}
        </p>
      ) : null}
      {children}
      {error ? (
        <p id={ids.errorId} className={styles.error}>
          <svg className={styles.errorIcon} viewBox="0 0 16 16" aria-hidden="true" focusable="false">
            <path
              fill="currentColor"
              d="M8 1a7 7 0 1 1 0 14A7 7 0 0 1 8 1Zm0 9.25a.9.9 0 1 0 0 1.8.9.9 0 0 0 0-1.8ZM8 4a.8.8 0 0 0-.8.8v3.7a.8.8 0 0 0 1.6 0V4.8A.8.8 0 0 0 8 4Z"
            />
          </svg>
          <span>{error}</span>
        </p>
      ) : null}
      {after}
    </div>
  );
}
