import type { FormHTMLAttributes, Ref } from "react";
import styles from "./form.module.css";

export interface FormProps extends FormHTMLAttributes<HTMLFormElement> {
  ref?: Ref<HTMLFormElement>;
}

/**
 * A form laid out as a vertical stack. The browser's own validation bubbles are off (noValidate): fields
 * show our messages, which are linked to them and can be translated.
 */
export function Form({ className, ref, ...rest }: FormProps) {
  return <form ref={ref} noValidate className={[styles.form, className ?? ""].filter(Boolean).join(" ")} {...rest} />;
}
