// One figure of a tile row (a <dl className="tiles">): its label, the
// figure, and a note saying what it means.

export function Tile(
  { label, value, note, tone, testId }: {
    label: string;
    value: string;
    note?: string;
    tone?: "success" | "error";
    testId?: string;
  },
) {
  return (
    <div className="tile" data-testid={testId}>
      <dt className="tile-label">{label}</dt>
      <dd className={`tile-value${tone ? ` text-${tone}` : ""}`}>{value}</dd>
      {note && <dd className="tile-note muted">{note}</dd>}
    </div>
  );
}
