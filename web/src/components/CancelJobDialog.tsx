// "Cancel this job?": processed data is kept, the job cannot be resumed.

import { ConfirmDialog } from "./ConfirmDialog.tsx";

export function CancelJobDialog(
  { busy, onConfirm, onCancel }: {
    busy: boolean;
    onConfirm: () => void;
    onCancel: () => void;
  },
) {
  return (
    <ConfirmDialog
      title="Cancel this job?"
      confirmLabel={busy ? "Canceling..." : "Yes, Cancel Job"}
      cancelLabel="Don't Cancel"
      busy={busy}
      destructive
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <p>
        The IP addresses processed so far are preserved and can still be
        downloaded, but the job cannot be resumed.
      </p>
    </ConfirmDialog>
  );
}
