// The live feed of the processing view: the last 100 results, newest at the
// bottom, scrolled automatically.

import { useEffect, useRef } from "react";
import type { ResultRow } from "../../../shared/wire.ts";
import { formatLocation, orDash } from "../lib/format.ts";
import { ScrollTable } from "./ScrollTable.tsx";

const COLUMNS = ["IP ADDRESS", "DOMAIN", "COMPANY", "LOCATION", "ISP"];

function ipClass(row: ResultRow): string {
  if (!row.success) return "ip-failed";
  const enrichment = row.enrichmentData;
  return enrichment?.domain && enrichment?.company
    ? "ip-complete"
    : "ip-partial";
}

export function LiveResultsList({ rows }: { rows: ResultRow[] }) {
  const scroller = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = scroller.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [rows]);

  return (
    <section aria-labelledby="live-results-title">
      <h3 id="live-results-title">Live Results</h3>
      <ScrollTable
        label="Live results list"
        className="live-results"
        scrollRef={scroller}
        tableClassName="striped"
        columns={COLUMNS}
      >
        {rows.length === 0
          ? (
            <tr>
              <td colSpan={COLUMNS.length} className="muted">
                Waiting for results...
              </td>
            </tr>
          )
          : rows.map((row) => {
            const enrichment = row.enrichmentData ?? {};
            const ip = enrichment.ip || row.originalData?.ip || "-";
            return (
              <tr key={row.id}>
                <td className={`ip ${ipClass(row)}`}>{ip}</td>
                {row.success
                  ? (
                    <>
                      <td>{orDash(enrichment.domain)}</td>
                      <td>{orDash(enrichment.company)}</td>
                      <td>
                        {formatLocation(
                          enrichment.city,
                          enrichment.country,
                        )}
                      </td>
                      <td>{orDash(enrichment.isp)}</td>
                    </>
                  )
                  : (
                    <td colSpan={COLUMNS.length - 1} className="ip-failed">
                      {row.error || "Lookup failed"}
                    </td>
                  )}
              </tr>
            );
          })}
      </ScrollTable>
      <p className="muted">
        <small>
          Showing {rows.length}{" "}
          most recent results (limited to last 100 for better performance)
        </small>
      </p>
    </section>
  );
}
