// Processing history: the jobs table, the cancel and clear confirmations,
// the job count and Refresh.

import { useState } from "react";
import { Link } from "react-router";
import type { Job } from "../../../shared/wire.ts";
import {
  failedToast,
  useCancelJob,
  useClearCompletedJobs,
  useJobs,
  useRestartJob,
} from "../api/jobs.ts";
import { CancelJobDialog } from "../components/CancelJobDialog.tsx";
import { ConfirmDialog } from "../components/ConfirmDialog.tsx";
import { JobsTable } from "../components/JobsTable.tsx";
import { usePageTitle } from "../lib/use_page_title.ts";

export function HistoryPage() {
  usePageTitle("Processing History");
  const jobs = useJobs();
  const cancel = useCancelJob({
    successToast: (answer) => ({
      title: "Job Cancelled",
      description: answer.message,
    }),
    errorToast: (error) => failedToast("Failed to cancel job", error),
  });
  const restart = useRestartJob();
  const clear = useClearCompletedJobs();
  const [cancelling, setCancelling] = useState<Job | null>(null);
  const [clearing, setClearing] = useState(false);

  const allJobs = jobs.data ?? [];
  const hasCompleted = allJobs.some((job) => job.status === "completed");

  const confirmCancel = () => {
    if (!cancelling) return;
    cancel.mutate(cancelling.id, { onSettled: () => setCancelling(null) });
  };

  const confirmClear = () => {
    clear.mutate(undefined, { onSettled: () => setClearing(false) });
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
          : allJobs.length === 0
          ? (
            <p className="empty">
              You haven't processed any files yet. Start by uploading a CSV file
              on the <Link to="/">home page</Link>.
            </p>
          )
          : (
            <JobsTable
              jobs={allJobs}
              onCancel={setCancelling}
              onRestart={(job) => restart.mutate(job.id)}
              restartingId={restart.isPending ? restart.variables : null}
            />
          )}
        <footer className="title-row">
          <span>{allJobs.length} job(s) total</span>
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
