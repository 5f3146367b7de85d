// The live feed of the processing view: the last 100 results, newest at the
// bottom, scrolled automatically.

import { useEffect, useRef } from "react";
import type { ResultRow } from "../../../shared/wire.ts";
import { formatLocation, orDash } from "../lib/format.ts";

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
      <div
        className="live-results"
        ref={scroller}
        tabIndex={0}
        role="region"
        aria-label="Live results list"
      >
        <table className="striped">
          <thead>
            <tr>
              <th scope="col">IP ADDRESS</th>
              <th scope="col">DOMAIN</th>
              <th scope="col">COMPANY</th>
              <th scope="col">LOCATION</th>
              <th scope="col">ISP</th>
            </tr>
          </thead>
          <tbody>
            {rows.length === 0
              ? (
                <tr>
                  <td colSpan={5} className="muted">Waiting for results...</td>
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
                        <td colSpan={4} className="ip-failed">
                          {row.error || "Lookup failed"}
                        </td>
                      )}
                  </tr>
                );
              })}
          </tbody>
        </table>
      </div>
      <p className="muted">
        <small>
          Showing {rows.length}{" "}
          most recent results (limited to last 100 for better performance)
        </small>
      </p>
    </section>
  );
}
