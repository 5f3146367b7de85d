// A job's status as a coloured badge; unknown values read as Pending.

const LABELS: Record<string, string> = {
  pending: "Pending",
  processing: "Processing",
  completed: "Completed",
  failed: "Failed",
  cancelled: "Cancelled",
};

export function StatusBadge({ status }: { status: string }) {
  const known = status in LABELS ? status : "pending";
  return <span className={`badge badge-${known}`}>{LABELS[known]}</span>;
}
