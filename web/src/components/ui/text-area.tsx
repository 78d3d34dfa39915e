import type { ReactNode, Ref, TextareaHTMLAttributes } from "react";
import { FieldFrame, useFieldIds } from "./text-field";
import styles from "./text-field.module.css";

export interface TextAreaProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "id"> {
  label: ReactNode;
  /** Shown under the label, always; linked to the text area with aria-describedby. */
  hint?: ReactNode;
  /** When set, the text area is marked invalid and the message is linked to it. */
  error?: ReactNode;
  /** Text after the label, such as "(optional)". */
  labelSuffix?: ReactNode;
  ref?: Ref<HTMLTextAreaElement>;
}

/** A text field of several lines (a list, one item per line), drawn and labelled like `TextField`. */
export function TextArea({ label, hint, error, labelSuffix, className, ref, rows = 3, ...inputProps }: TextAreaProps) {
  const ids = useFieldIds(hint, error);
  return (
    <FieldFrame ids={ids} label={label} labelSuffix={labelSuffix} hint={hint} error={error} className={className}>
      <textarea
        ref={ref}
        id={ids.id}
        rows={rows}
        className={`${styles.input} ${styles.area}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={ids.describedBy}
        {...inputProps}
      />
    </FieldFrame>
  );
}
