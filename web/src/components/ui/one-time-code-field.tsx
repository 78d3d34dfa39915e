import { TextField, type TextFieldProps } from "./text-field";

/**
 * A field for a one-time code (an authenticator app's, a mailed one, a backup code): named and marked so the browser
 * and the phone's keyboard offer the code they received (`one-time-code`, numeric keypad), never spell-checked,
 * at most 12 characters, required.
 */
export function OneTimeCodeField(props: Omit<TextFieldProps, "name" | "autoComplete" | "inputMode" | "maxLength">) {
  return (
    <TextField
      name="one-time-code"
      autoComplete="one-time-code"
      inputMode="numeric"
      spellCheck={false}
      maxLength={12}
      required
      {...props}
    />
  );
}
