import { useRef, useState, type FormEvent, type RefObject } from "react";
import { useTranslation } from "react-i18next";
import type { AuthError } from "@gatehouse/client";
import { placeError, type ErrorPlacement } from "./auth-errors";
import { useFocusFirstError } from "./use-focus-first-error";

/** A message per field that is wrong. */
export type FieldErrors<F extends string> = Partial<Record<F, string>>;

/** The fields of `V` that hold text (what `field()` binds to a text input). */
type TextField<V> = { [K in keyof V]: V[K] extends string ? K : never }[keyof V] & string;

/** The names of a form's fields. */
type Field<V> = keyof V & string;

export interface FormOptions<V> {
  /** Checks made before sending: a message per wrong field. Nothing is sent while any is found. */
  validate?(values: V): FieldErrors<Field<V>>;
  /**
   * Where the service's refusal goes: beside a field (a code about one field, a VALIDATION_ERROR's issues, by
   * auth-errors.ts fieldOfError and fieldsOfIssues), else at the top of the form.
   */
  placement?: ErrorPlacement<Field<V>>;
}

export interface FormState<V, N> {
  values: V;
  /** The message beside each wrong field. */
  errors: FieldErrors<Field<V>>;
  /** The form-level error (the top of the form), or null. */
  error: string | null;
  /** What the last submit achieved (a success message's content), or null. */
  notice: N | null;
  submitting: boolean;
  /** For the <Form>: after a failed submit, focus moves to its first wrong field or focusable message. */
  ref: RefObject<HTMLFormElement | null>;
  /**
   * Sets a field. As every next action does, this clears the form's message (error or notice) and the field's
   * own error.
   */
  set<K extends keyof V>(field: K, value: V[K]): void;
  /** Back to `values` (the initial ones by default), without errors or messages. */
  reset(values?: V): void;
  /** Props for the TextField or PasswordField of a text field: value, error, onChange. */
  field<K extends TextField<V>>(name: K): { value: string; error: string | undefined; onChange(event: { target: { value: string } }): void };
  /**
   * The form's submit handler: checks (validate), clears the messages, sends, and places the error `send`
   * returns. `send` answers null when it settled the outcome itself (succeed(), fail(), navigating away).
   */
  onSubmit(send: (values: V) => Promise<AuthError | null | void>): (event?: FormEvent<HTMLFormElement>) => void;
  /** Shows field errors and a form-level error, and moves focus to the first. */
  fail(errors: FieldErrors<Field<V>>, error?: string | null): void;
  /** Shows what a submit achieved. */
  succeed(notice: N): void;
}

/**
 * One form's state: its values, the errors beside fields and at the top, whether it is sending, and what the
 * last submit achieved. Used by every form of the app, so they validate, send, show refusals and clear
 * messages alike.
 */
export function useForm<V extends object, N = true>(initial: V | (() => V), options: FormOptions<V> = {}): FormState<V, N> {
  const { t } = useTranslation();
  const ref = useRef<HTMLFormElement>(null);
  const [start] = useState(initial);
  const [values, setValues] = useState<V>(start);
  const [errors, setErrors] = useState<FieldErrors<Field<V>>>({});
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<N | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const sending = useRef(false);
  const [attempt, setAttempt] = useState(0);
  useFocusFirstError(ref, attempt);
  // The latest values, for a submit handler made in an earlier render.
  const latest = useRef(values);
  latest.current = values;

  function fail(fields: FieldErrors<Field<V>>, message: string | null = null) {
    setErrors(fields);
    setError(message);
    setNotice(null);
    setAttempt((n) => n + 1);
  }

  function set<K extends keyof V>(field: K, value: V[K]) {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => {
      if (!(field in current)) return current;
      const { [field as Field<V>]: _cleared, ...rest } = current;
      return rest as FieldErrors<Field<V>>;
    });
    setError(null);
    setNotice(null);
  }

  return {
    values,
    errors,
    error,
    notice,
    submitting,
    ref,
    set,
    reset(next = start) {
      setValues(next);
      setErrors({});
      setError(null);
      setNotice(null);
    },
    field(name) {
      return {
        value: values[name] as string,
        error: errors[name],
        onChange: (event) => set(name, event.target.value as V[typeof name]),
      };
    },
    onSubmit(send) {
      return (event) => {
        event?.preventDefault();
        if (sending.current) return;
        const current = latest.current;
        const found = options.validate?.(current) ?? {};
        if (Object.keys(found).length > 0) return fail(found);
        setErrors({});
        setError(null);
        setNotice(null);
        setSubmitting(true);
        sending.current = true;
        void send(current)
          .then((refused) => {
            if (!refused) return;
            const placed = placeError(t, refused, options.placement ?? {});
            fail(placed.fields, placed.form);
          })
          .finally(() => {
            sending.current = false;
            setSubmitting(false);
          });
      };
    },
    fail,
    succeed: setNotice,
  };
}
