// The preview table of the results view; empty values show a dash, a failed
// row its reason across the enrichment columns. On a phone each row reads
// as a card (stacked-on-phone in results.css).

import type { PreviewRow } from "../../../shared/wire.ts";
import { formatLocation, orDash } from "../lib/format.ts";
import { ScrollTable } from "./ScrollTable.tsx";
import { networkTypeLabel } from "./summary/labels.ts";

const COLUMNS = [
  "IP Address",
  "Domain",
  "Company",
  "Location",
  "ISP",
  "Network Type",
  "ISP Filtered",
  "ASN",
] as const;

/** Why the row got its type, and how sure the answer is. */
function reasonTitle(row: PreviewRow): string | undefined {
  if (!row.classificationReason) return undefined;
  return row.classificationConfidence === null
    ? row.classificationReason
    : `${row.classificationReason} (confidence ${
      row.classificationConfidence.toFixed(2)
    })`;
}

/** The tooltip of the ISP Filtered cell: network type and why. */
function classificationTitle(row: PreviewRow): string | undefined {
  if (!row.networkType) return undefined;
  const reason = reasonTitle(row);
  return reason ? `${row.networkType}: ${reason}` : row.networkType;
}

export function ResultsPreviewTable(
  { rows, emptyText = "No results yet." }: {
    rows: PreviewRow[];
    emptyText?: string;
  },
) {
  return (
    <ScrollTable
      label="Results preview"
      tableClassName="striped results-table stacked-on-phone"
      columns={COLUMNS}
    >
      {rows.length === 0
        ? (
          <tr>
            <td colSpan={COLUMNS.length} className="muted">{emptyText}</td>
          </tr>
        )
        : rows.map((row, index) =>
          row.success
            ? <EnrichedRow key={index} row={row} />
            : (
              <tr key={index} className="failed-row">
                <td data-label="IP Address" className="ip text-error">
                  {orDash(row.ip)}
                </td>
                <td data-label="Result" colSpan={COLUMNS.length - 1}>
                  <strong className="text-error">Failed:</strong>{" "}
                  {row.error ?? "Lookup failed"}{" "}
                  <span className="muted">(kept in the download)</span>
                </td>
              </tr>
            )
        )}
    </ScrollTable>
  );
}

function EnrichedRow({ row }: { row: PreviewRow }) {
  return (
    <tr>
      <td data-label="IP Address" className="ip">{orDash(row.ip)}</td>
      <td data-label="Domain">{orDash(row.domain)}</td>
      <td data-label="Company">{orDash(row.company)}</td>
      <td data-label="Location">
        {formatLocation(row.city, row.country)}
      </td>
      <td data-label="ISP">{orDash(row.isp)}</td>
      <td
        data-label="Network Type"
        title={reasonTitle(row)}
      >
        {row.networkType ? networkTypeLabel(row.networkType) : "-"}
      </td>
      <td data-label="ISP Filtered" title={classificationTitle(row)}>
        {row.ispFiltered ? "Yes" : "No"}
      </td>
      <td data-label="ASN">{orDash(row.asn)}</td>
    </tr>
  );
}
