// The table of the history page: one row per job, with the actions its
// status allows (view, download, restart, continue monitoring, cancel). On
// a phone each job reads as a card (stacked-on-phone in results.css).

import { Link } from "react-router";
import type { Job } from "../../../shared/wire.ts";
import { downloadUrl } from "../api/jobs.ts";
import { formatDate, percentOf } from "../lib/format.ts";
import { FileName } from "./FileName.tsx";
import { ScrollTable } from "./ScrollTable.tsx";
import { StatusBadge } from "./StatusBadge.tsx";

interface Props {
  jobs: Job[];
  onCancel: (job: Job) => void;
  onRestart: (job: Job) => void;
  /** The job whose restart is under way, if any. */
  restartingId: number | null;
}

export function JobsTable({ jobs, onCancel, onRestart, restartingId }: Props) {
  return (
    <ScrollTable
      label="Jobs"
      tableClassName="striped jobs-table stacked-on-phone"
      columns={["Filename", "Date", "Status", "Progress", "Actions"]}
    >
      {jobs.map((job) => (
        <tr
          key={job.id}
          className={job.status === "processing" ? "row-processing" : undefined}
          data-job-id={job.id}
        >
          <td data-label="Filename" className="file-name">
            <FileName name={job.originalFileName || job.fileName} />
          </td>
          <td data-label="Date">{formatDate(job.createdAt)}</td>
          <td data-label="Status">
            <StatusBadge status={job.status} />
          </td>
          <td data-label="Progress">
            {job.totalIPs > 0
              ? `${percentOf(job.processedIPs, job.totalIPs)}%`
              : "N/A"}
          </td>
          <td data-label="Actions">
            <JobActions
              job={job}
              onCancel={() => onCancel(job)}
              onRestart={() => onRestart(job)}
              restarting={restartingId === job.id}
            />
          </td>
        </tr>
      ))}
    </ScrollTable>
  );
}

function JobActions(
  { job, onCancel, onRestart, restarting }: {
    job: Job;
    onCancel: () => void;
    onRestart: () => void;
    restarting: boolean;
  },
) {
  const name = job.originalFileName || job.fileName;
  switch (job.status) {
    case "completed":
      return (
        <div className="actions">
          <Link
            to={`/results/${job.id}`}
            aria-label={`View results of ${name}`}
          >
            View
          </Link>
          <a href={downloadUrl(job.id)} aria-label={`Download ${name}`}>
            Download
          </a>
        </div>
      );
    case "failed":
      return (
        <div className="actions">
          <button
            type="button"
            className="small"
            onClick={onRestart}
            disabled={restarting}
            aria-busy={restarting || undefined}
            aria-label={`Restart ${name}`}
          >
            Restart
          </button>
          {job.partialSaveAvailable && (
            <PartialLink id={job.id} name={name} label="Partial Results" />
          )}
        </div>
      );
    case "cancelled":
      return (
        <div className="actions">
          {job.partialSaveAvailable
            ? <PartialLink id={job.id} name={name} label="Partial Download" />
            : <span className="muted">No results</span>}
        </div>
      );
    default: // processing, pending and anything unknown
      return (
        <div className="actions">
          <Link
            to={`/?jobId=${job.id}`}
            aria-label={`Continue Monitoring ${name}`}
          >
            Continue Monitoring
          </Link>
          <button
            type="button"
            className="small outline destructive"
            onClick={onCancel}
            aria-label={`Cancel ${name}`}
          >
            Cancel
          </button>
          {job.partialSaveAvailable && (
            <PartialLink id={job.id} name={name} label="Partial Download" />
          )}
        </div>
      );
  }
}

/** The download of the rows a job has so far, named for its file. */
function PartialLink(
  { id, name, label }: { id: number; name: string; label: string },
) {
  return (
    <a href={downloadUrl(id)} aria-label={`${label} of ${name}`}>
      {label}
    </a>
  );
}
