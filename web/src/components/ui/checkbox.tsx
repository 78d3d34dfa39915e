import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from "react";
import styles from "./checkbox.module.css";

export interface CheckboxProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "type"> {
  label: ReactNode;
  ref?: Ref<HTMLInputElement>;
}

export function Checkbox({ label, className, ref, ...inputProps }: CheckboxProps) {
  const id = useId();
  return (
    <div className={[styles.row, className ?? ""].filter(Boolean).join(" ")}>
      <input ref={ref} id={id} type="checkbox" className={styles.input} {...inputProps} />
      <label htmlFor={id} className={styles.label}>
        {label}
      </label>
    </div>
  );
}
