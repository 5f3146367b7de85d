// Processing history: every job with the actions its status allows, the
// cancel and clear confirmations, the job count and Refresh.

import { useState } from "react";
import { Link } from "react-router";
import type { Job } from "../../../shared/wire.ts";
import {
  downloadUrl,
  messageOf,
  useCancelJob,
  useClearCompletedJobs,
  useJobs,
  useRestartJob,
} from "../api/client.ts";
import { CancelJobDialog } from "../components/CancelJobDialog.tsx";
import { ConfirmDialog } from "../components/ConfirmDialog.tsx";
import { StatusBadge } from "../components/StatusBadge.tsx";
import { formatDate, percentOf } from "../lib/format.ts";
import { useToast } from "../lib/toast.ts";
import { usePageTitle } from "../lib/use_page_title.ts";

export function HistoryPage() {
  usePageTitle("Processing History");
  const toast = useToast();
  const jobs = useJobs();
  const cancel = useCancelJob();
  const restart = useRestartJob();
  const clear = useClearCompletedJobs();
  const [cancelling, setCancelling] = useState<Job | null>(null);
  const [clearing, setClearing] = useState(false);

  const list = jobs.data ?? [];
  const hasCompleted = list.some((job) => job.status === "completed");

  const confirmCancel = () => {
    if (!cancelling) return;
    cancel.mutate(cancelling.id, {
      onSuccess: (answer) =>
        toast({ title: "Job Cancelled", description: answer.message }),
      onError: (error) =>
        toast({
          title: "Error",
          description: `Failed to cancel job: ${
            messageOf(error, "Unknown error")
          }`,
          variant: "destructive",
        }),
      onSettled: () => setCancelling(null),
    });
  };

  const doRestart = (job: Job) => {
    restart.mutate(job.id, {
      onSuccess: (answer) =>
        toast({ title: "Job Restarted", description: answer.message }),
      onError: (error) =>
        toast({
          title: "Error",
          description: `Failed to restart job: ${
            messageOf(error, "Unknown error")
          }`,
          variant: "destructive",
        }),
    });
  };

  const confirmClear = () => {
    clear.mutate(undefined, {
      onSuccess: (answer) =>
        toast({
          title: "Jobs Cleared",
          description:
            `Successfully cleared ${answer.cleared} completed job(s)`,
        }),
      onError: (error) =>
        toast({
          title: "Error",
          description: `Failed to clear jobs: ${
            messageOf(error, "Unknown error")
          }`,
          variant: "destructive",
        }),
      onSettled: () => setClearing(false),
    });
  };

  return (
    <>
      <div className="title-row page-title">
        <h1>Processing History</h1>
        <div className="button-row">
          {hasCompleted && (
            <button
              type="button"
              className="outline destructive"
              onClick={() => setClearing(true)}
            >
              Clear Completed Jobs
            </button>
          )}
          <Link to="/" role="button" className="secondary">
            Back to Home
          </Link>
        </div>
      </div>

      <article aria-labelledby="jobs-title">
        <header>
          <h2 id="jobs-title">Recent Enrichment Jobs</h2>
        </header>
        {jobs.isPending
          ? (
            <p aria-busy="true" className="loading">
              Loading job history...
            </p>
          )
          : jobs.isError
          ? (
            <p className="notice notice-error" role="alert">
              Failed to load job history: {jobs.error.message}
            </p>
          )
          : list.length === 0
          ? (
            <p className="empty">
              You haven't processed any files yet. Start by uploading a CSV file
              on the <Link to="/">home page</Link>.
            </p>
          )
          : (
            <div
              className="overflow-auto"
              tabIndex={0}
              role="region"
              aria-label="Jobs"
            >
              <table className="striped jobs-table">
                <thead>
                  <tr>
                    <th scope="col">Filename</th>
                    <th scope="col">Date</th>
                    <th scope="col">Status</th>
                    <th scope="col">Progress</th>
                    <th scope="col">Actions</th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((job) => (
                    <tr
                      key={job.id}
                      className={job.status === "processing"
                        ? "row-processing"
                        : undefined}
                      data-job-id={job.id}
                    >
                      <td className="break">
                        {job.originalFileName || job.fileName}
                      </td>
                      <td>{formatDate(job.createdAt)}</td>
                      <td>
                        <StatusBadge status={job.status} />
                      </td>
                      <td>
                        {job.totalIPs > 0
                          ? `${percentOf(job.processedIPs, job.totalIPs)}%`
                          : "N/A"}
                      </td>
                      <td>
                        <JobActions
                          job={job}
                          onCancel={() => setCancelling(job)}
                          onRestart={() => doRestart(job)}
                          restarting={restart.isPending &&
                            restart.variables === job.id}
                        />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        <footer className="title-row">
          <span>{list.length} job(s) total</span>
          <button
            type="button"
            className="outline secondary"
            onClick={() => jobs.refetch()}
            aria-busy={jobs.isFetching || undefined}
          >
            Refresh
          </button>
        </footer>
      </article>

      {cancelling && (
        <CancelJobDialog
          busy={cancel.isPending}
          onConfirm={confirmCancel}
          onCancel={() => setCancelling(null)}
        />
      )}
      {clearing && (
        <ConfirmDialog
          title="Clear completed jobs?"
          confirmLabel={clear.isPending ? "Clearing..." : "Clear Jobs"}
          cancelLabel="Cancel"
          busy={clear.isPending}
          destructive
          onConfirm={confirmClear}
          onCancel={() => setClearing(false)}
        >
          <p>
            All completed job records and their results will be permanently
            deleted. This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
    </>
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
            <a
              href={downloadUrl(job.id)}
              aria-label={`Partial Results of ${name}`}
            >
              Partial Results
            </a>
          )}
        </div>
      );
    case "cancelled":
      return (
        <div className="actions">
          {job.partialSaveAvailable
            ? (
              <a
                href={downloadUrl(job.id)}
                aria-label={`Partial Download of ${name}`}
              >
                Partial Download
              </a>
            )
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
            <a
              href={downloadUrl(job.id)}
              aria-label={`Partial Download of ${name}`}
            >
              Partial Download
            </a>
          )}
        </div>
      );
  }
}
