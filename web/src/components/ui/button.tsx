import type { ButtonHTMLAttributes, ReactNode, Ref } from "react";
import { Spinner } from "./spinner";
import styles from "./button.module.css";

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  /** `danger` is outlined, for a first step; `destructive` is solid red, for the final, irreversible one. */
  variant?: "primary" | "secondary" | "ghost" | "danger" | "destructive";
  size?: "md" | "sm";
  /** Disables the button and shows a spinner with `loadingText` in place of the children. */
  loading?: boolean;
  loadingText?: ReactNode;
  fullWidth?: boolean;
  ref?: Ref<HTMLButtonElement>;
}

export function Button({
  variant = "primary",
  size = "md",
  loading = false,
  loadingText,
  fullWidth = false,
  disabled,
  className,
  children,
  type = "button",
  ...rest
}: ButtonProps) {
  const classes = [styles.button, styles[variant], styles[size], fullWidth ? styles.fullWidth : "", className ?? ""];
  return (
    <button
      type={type}
      className={classes.filter(Boolean).join(" ")}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      {...rest}
    >
      {loading ? <Spinner size="sm" /> : null}
      <span>{loading && loadingText ? loadingText : children}</span>
    </button>
  );
}
