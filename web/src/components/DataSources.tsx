// The databases the server answers from: each one's source, licence,
// version and build date, marked when older than the server's
// DATA_MAX_AGE_DAYS; and how the last update-databases run ended. With
// `jobVersion`, the databases a job ran on, and whether they are still the
// ones in use.

import type { DatabaseInfo } from "../../../shared/wire.ts";
import { useServerConfig } from "../api/config.ts";
import { TableHead } from "./ScrollTable.tsx";

const DAY_MS = 86_400_000;

const KIND_LABELS: Record<DatabaseInfo["kind"], string> = {
  geolocation: "Geolocation",
  asn: "ASN",
  classifier: "Classifier",
};

function BuiltCell({ builtAt, maxAgeDays }: {
  builtAt: string | null;
  maxAgeDays: number;
}) {
  if (!builtAt) return <td>unknown</td>;
  const days = Math.floor((Date.now() - Date.parse(builtAt)) / DAY_MS);
  const stale = days > maxAgeDays;
  return (
    <td data-stale={stale || undefined}>
      {builtAt.slice(0, 10)} ({days} days ago{stale ? ", stale" : ""})
    </td>
  );
}

export function DataSources({ jobVersion }: { jobVersion?: string | null }) {
  const { data: config } = useServerConfig();
  if (!config?.data) return null;
  const { databases, maxAgeDays, lastUpdate, version } = config.data;
  const job = jobVersion !== undefined;
  return (
    <details className="data-sources" open={!job}>
      <summary>
        {job ? "Data this job used" : "Data sources and their age"}
      </summary>
      {job && (
        <p data-testid="job-data-version">
          {jobVersion ?? "Not recorded (a job from before versions were kept)."}
          {jobVersion && jobVersion !== version &&
            " The server has newer data since; a new job uses it."}
        </p>
      )}
      <table>
        <TableHead
          columns={[
            "Data",
            "Database",
            "Version",
            "Built",
            "Source and licence",
          ]}
        />
        <tbody>
          {databases.map((d) => (
            <tr key={`${d.name} ${d.file ?? d.version}`}>
              <td>{KIND_LABELS[d.kind]}</td>
              <td>
                {d.name}
                {d.file && (
                  <small>
                    <br />
                    {d.file}
                  </small>
                )}
              </td>
              <td>{d.version}</td>
              <BuiltCell builtAt={d.builtAt} maxAgeDays={maxAgeDays} />
              <td>
                {d.url ? <a href={d.url}>{d.source}</a> : d.source}
                {d.licence && `; ${d.licence}`}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted">
        Data built more than {maxAgeDays} days ago is marked stale. {lastUpdate
          ? `Last update (${
            lastUpdate.at.slice(0, 16).replace("T", " ")
          } UTC): ${
            lastUpdate.ok ? "" : "failed, the data in use stayed: "
          }${lastUpdate.message}`
          : "No update has run on this server yet."}
      </p>
    </details>
  );
}
