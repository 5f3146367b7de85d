// The job's rows as tiles whose parts add up to the total (row_counts.ts),
// then any tiles the caller adds (the results view's duration).

import type { ReactNode } from "react";
import type { JobSummary } from "../../../../shared/summary.ts";
import { formatCount } from "../../lib/format.ts";
import { Tile } from "../Tile.tsx";
import { rowCountParts } from "./row_counts.ts";

export function RowCounts(
  { summary, children }: { summary: JobSummary; children?: ReactNode },
) {
  const { total, parts } = rowCountParts(summary);
  return (
    <dl className="tiles" aria-label="Rows">
      <Tile
        testId="rows-total"
        label="Rows"
        value={formatCount(total)}
        note="kept + left out + failed"
      />
      {parts.map((part) => (
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
