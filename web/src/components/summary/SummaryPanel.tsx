// A job's summary above its preview: totals, top companies and countries,
// network types and a world map. Each chart has a text alternative and its
// data as a table behind a toggle; charts take their width from the page.

import type { ReactNode } from "react";
import type {
  CountryCount,
  FailureCount,
  JobSummary,
  NetworkTypeCount,
} from "../../../../shared/summary.ts";
import { drawBars, drawWorldMap } from "./charts.ts";
import { type Column, DataTable } from "./DataTable.tsx";
import {
  type Bar,
  companyBars,
  countryBars,
  describeBars,
  networkTypeBars,
  networkTypeLabel,
} from "./labels.ts";
import { PlotFigure } from "./PlotFigure.tsx";
import { RowCounts } from "./RowCounts.tsx";
import "./summary.css";

const count = (n: number) => n.toLocaleString("en-US");

function barColumns(label: string): Column<Bar>[] {
  return [
    { header: label, cell: (b) => b.label },
    { header: "Rows", cell: (b) => count(b.count), numeric: true },
  ];
}

const COUNTRY_COLUMNS: Column<CountryCount>[] = [
  { header: "Country", cell: (c) => c.country },
  { header: "Code", cell: (c) => c.country_code ?? "" },
  { header: "Rows", cell: (c) => count(c.count), numeric: true },
];

/** Every row of a type, and of them those left out of the download. */
const NETWORK_TYPE_COLUMNS: Column<NetworkTypeCount>[] = [
  { header: "Network type", cell: (t) => networkTypeLabel(t.network_type) },
  { header: "Rows", cell: (t) => count(t.count), numeric: true },
  { header: "Left out", cell: (t) => count(t.filtered), numeric: true },
  { header: "Kept", cell: (t) => count(t.count - t.filtered), numeric: true },
];

const FAILURE_COLUMNS: Column<FailureCount>[] = [
  { header: "Reason", cell: (f) => f.reason },
  { header: "Rows", cell: (f) => count(f.count), numeric: true },
];

interface Props {
  summary: JobSummary;
  /** The job is still running: the figures are over the rows so far. */
  running?: boolean;
  /** Tiles after the row counts (Tile components). */
  extraTiles?: ReactNode;
}

export function SummaryPanel(
  { summary, running = false, extraTiles }: Props,
) {
  const { rows } = summary;
  const companies = companyBars(summary);
  const countries = countryBars(summary);
  const types = networkTypeBars(summary);
  const mapDescription = summary.topCountries.length === 0
    ? "World map: no countries yet."
    : `World map shaded by rows per country; most rows from ${
      summary.topCountries.slice(0, 3).map((c) =>
        `${c.country} (${count(c.count)})`
      )
        .join(", ")
    }.`;

  return (
    <section className="summary-panel" aria-labelledby="summary-heading">
      <h3 id="summary-heading">
        {running ? "Summary (so far)" : "Summary"}
      </h3>
      <RowCounts summary={summary}>{extraTiles}</RowCounts>
      <div className="summary-grid">
        <PlotFigure
          title="Top companies (kept rows)"
          description={describeBars(companies, "top companies")}
          data={summary.topCompanies}
          draw={(width) => drawBars(companies, width, "#1d5fbf")}
          columns={barColumns("Company")}
          rows={companies}
        />
        <PlotFigure
          title="Top countries"
          description={describeBars(countries, "top countries")}
          data={summary.topCountries}
          draw={(width) => drawBars(countries, width, "#1b7f3b")}
          columns={COUNTRY_COLUMNS}
          rows={summary.topCountries}
        />
        <PlotFigure
          title="Network types (kept and left out)"
          description={describeBars(types, "network types")}
          data={summary.networkTypes}
          draw={(width) => drawBars(types, width, "#9a6700")}
          columns={NETWORK_TYPE_COLUMNS}
          rows={summary.networkTypes}
        />
        <PlotFigure
          title="Rows by country"
          description={mapDescription}
          data={summary.topCountries}
          draw={(width) => drawWorldMap(summary.topCountries, width)}
          columns={COUNTRY_COLUMNS}
          rows={summary.topCountries}
        />
      </div>
      {summary.failedByReason.length > 0 && (
        <DataTable
          caption="Failed rows by reason"
          toggle={`Failed rows by reason (${count(rows.failed)})`}
          columns={FAILURE_COLUMNS}
          rows={summary.failedByReason}
        />
      )}
    </section>
  );
}
