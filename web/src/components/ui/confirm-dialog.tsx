import { useEffect, useId, useRef, type ReactNode } from "react";
import { Button } from "./button";
import styles from "./confirm-dialog.module.css";

export interface ConfirmDialogProps {
  open: boolean;
  /** A question that names what goes ("Remove Ivan from Acme Labs?"); it labels the dialog. */
  title: ReactNode;
  /** What follows from confirming; it describes the dialog. */
  children?: ReactNode;
  /** Names the action again ("Remove member"), never a bare "OK". */
  confirmLabel: ReactNode;
  cancelLabel: ReactNode;
  /** The confirm button's look: `destructive` (default) for what cannot be undone. */
  variant?: "destructive" | "primary";
  /** While the action runs: the confirm button spins and the dialog stays open. */
  loading?: boolean;
  loadingText?: ReactNode;
  /** Something to show inside the dialog, such as the action's error. */
  message?: ReactNode;
  onConfirm(): void;
  /** Cancel, Escape or a click beside the dialog (ignored while loading). */
  onClose(): void;
}

/**
 * A modal question before an action that cannot be taken back: a native <dialog> opened with showModal(), so
 * the rest of the page is inert and Escape closes it. The safe choice has focus when it opens, and focus goes
 * back to the control that opened it when it closes (when that control is still on the page).
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  cancelLabel,
  variant = "destructive",
  loading = false,
  loadingText,
  message,
  onConfirm,
  onClose,
}: ConfirmDialogProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const triggerRef = useRef<HTMLElement | null>(null);
  const titleId = useId();
  const descriptionId = useId();
  // Read by the native event handlers below without re-binding them.
  const latest = useRef({ loading, onClose });
  latest.current = { loading, onClose };

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      triggerRef.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      dialog.showModal();
      cancelRef.current?.focus();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  // Focus goes back where it came from once the dialog closes, however it closed.
  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    const onNativeClose = () => {
      const trigger = triggerRef.current;
      triggerRef.current = null;
      if (trigger?.isConnected) trigger.focus();
      // Closed by the browser itself (a second Escape): tell the owner, who still thinks it is open.
      latest.current.onClose();
    };
    const onCancel = (event: Event) => {
      event.preventDefault();
      if (!latest.current.loading) latest.current.onClose();
    };
    dialog.addEventListener("close", onNativeClose);
    dialog.addEventListener("cancel", onCancel);
    return () => {
      dialog.removeEventListener("close", onNativeClose);
      dialog.removeEventListener("cancel", onCancel);
      if (dialog.open) dialog.close();
    };
  }, []);

  return (
    <dialog
      ref={dialogRef}
      className={styles.dialog}
      aria-labelledby={titleId}
      aria-describedby={children ? descriptionId : undefined}
      onClick={(event) => {
        // A click on the backdrop lands on the <dialog> itself; clicks inside land on its content.
        if (event.target === event.currentTarget && !loading) onClose();
      }}
    >
      {open ? (
        <div className={styles.content}>
          <h2 id={titleId} className={styles.title}>
            {title}
          </h2>
          {children ? (
            <div id={descriptionId} className={styles.description}>
              {children}
            </div>
          ) : null}
          {message}
          <div className={styles.buttons}>
            <Button ref={cancelRef} variant="secondary" disabled={loading} onClick={onClose}>
              {cancelLabel}
            </Button>
            <Button variant={variant} loading={loading} loadingText={loadingText} onClick={onConfirm}>
              {confirmLabel}
            </Button>
          </div>
        </div>
      ) : null}
    </dialog>
  );
}
