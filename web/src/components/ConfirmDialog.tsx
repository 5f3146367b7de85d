// A modal confirmation (<dialog>): Escape or the cancel button closes it.

import { type ReactNode, useEffect, useId, useRef } from "react";

interface Props {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  busy?: boolean;
  destructive?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

export function ConfirmDialog(props: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const bodyId = useId();

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal?.();
    return () => element?.close?.();
  }, []);

  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      onCancel={(event) => {
        event.preventDefault();
        props.onCancel();
      }}
    >
      <article>
        <header>
          <h2 id={titleId}>{props.title}</h2>
        </header>
        <div id={bodyId}>{props.children}</div>
        <footer>
          <button
            type="button"
            className="secondary"
            onClick={props.onCancel}
            autoFocus
          >
            {props.cancelLabel}
          </button>
          <button
            type="button"
            className={props.destructive ? "destructive" : undefined}
            onClick={props.onConfirm}
            disabled={props.busy}
            aria-busy={props.busy || undefined}
          >
            {props.confirmLabel}
          </button>
        </footer>
      </article>
    </dialog>
  );
}
