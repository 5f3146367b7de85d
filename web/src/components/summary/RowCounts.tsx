// The job's rows as tiles: the rows, the kept and left-out parts that add
// up to them, and the failed rows among the kept (shared/row_counts.ts, as
// the .xlsx Summary sheet counts them); then any tiles the caller adds (the
// results view's duration).

import type { ReactNode } from "react";
import type { JobSummary } from "../../../../shared/summary.ts";
import { rowCountParts } from "../../../../shared/row_counts.ts";
import { formatCount } from "../../lib/format.ts";
import { Tile } from "../Tile.tsx";

export function RowCounts(
  { summary, children }: { summary: JobSummary; children?: ReactNode },
) {
  const { total, totalNote, parts, failed } = rowCountParts(summary);
  return (
    <dl className="tiles" aria-label="Rows">
      <Tile
        testId="rows-total"
        label="Rows"
        value={formatCount(total)}
        note={totalNote}
      />
      {[...parts, failed].map((part) => (
        <Tile
          key={part.key}
          testId={`rows-${part.key}`}
          label={part.label}
          value={formatCount(part.count)}
          note={part.note}
          tone={part.key === "failed" && part.count > 0 ? "error" : undefined}
        />
      ))}
      {children}
    </dl>
  );
}
