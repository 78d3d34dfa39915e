import { Link, type LinkProps } from "react-router";
import styles from "./button.module.css";

export interface ButtonLinkProps extends LinkProps {
  variant?: "primary" | "secondary";
  fullWidth?: boolean;
}

/** A link that looks like a Button: it navigates, so it stays a link for assistive technology. */
export function ButtonLink({ variant = "primary", fullWidth = false, className, ...rest }: ButtonLinkProps) {
  const classes = [styles.button, styles[variant], styles.md, fullWidth ? styles.fullWidth : "", styles.link, className ?? ""];
  return <Link className={classes.filter(Boolean).join(" ")} {...rest} />;
}
