// Processing view: live badge, progress, details grid, live results, partial
// download and cancel. Polls the job every 2 s and listens on the socket
// until the job is final; hands a completed job on to the results view.

import { useEffect, useRef, useState } from "react";
import type { Job } from "../../../shared/wire.ts";
import {
  downloadUrl,
  isFinal,
  useCancelJob,
  useJob,
  useRestartJob,
} from "../api/jobs.ts";
import { useJobUpdates, useLiveResults } from "../api/live.ts";
import { useJobSummary } from "../api/summary.ts";
import {
  estimateRemaining,
  formatCount,
  formatDuration,
  percentOf,
  secondsBetween,
} from "../lib/format.ts";
import { showToast } from "../lib/toast.ts";
import { CancelJobDialog } from "./CancelJobDialog.tsx";
import { FileName } from "./FileName.tsx";
import { HostnameLookupsLine } from "./HostnameLookupsLine.tsx";
import { LiveResultsList } from "./LiveResultsList.tsx";
import { JobSummarySection } from "./summary/JobSummarySection.tsx";

interface Props {
  job: Job;
  onCompleted: (job: Job) => void;
  onProcessAnother: () => void;
}

export function ProcessingView(props: Props) {
  const { data: polledJob } = useJob(props.job.id, 2000);
  const job = polledJob ?? props.job;
  const final = isFinal(job.status);
  const connected = useJobUpdates(job.id, !final);
  const liveRows = useLiveResults(job.id, !final);
  // The same query as the summary section below (one request).
  const summary = useJobSummary(job.id, final ? false : 2000);
  const cancel = useCancelJob({
    successToast: {
      title: "Processing canceled",
      description: "The job has been canceled successfully.",
    },
    errorToast: {
      title: "Error",
      description: "Failed to cancel job. Please try again.",
      variant: "destructive",
    },
  });
  const restart = useRestartJob();
  const [confirming, setConfirming] = useState(false);
  const [now, setNow] = useState(() => Date.now());
  const lastStatus = useRef(job.status);
  const { onCompleted } = props;

  useEffect(() => {
    if (final) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [final]);

  useEffect(() => {
    const previous = lastStatus.current;
    lastStatus.current = job.status;
    if (job.status === "completed") {
      if (previous !== "completed") showToast({ title: "Processing complete" });
      onCompleted(job);
    } else if (job.status === "failed" && previous !== "failed") {
      showToast({
        title: "Processing failed",
        description: job.error || "There was an error processing your file",
        variant: "destructive",
      });
    }
  }, [job, onCompleted]);

  const elapsed = secondsBetween(
    job.createdAt,
    final && job.completedAt ? job.completedAt : now,
  );
  // The figures shown are the summary's (fetched again as the job's rows
  // grow), so the progress, the details and the summary's tiles are one
  // count; the job's own until the first summary arrives.
  const rows = summary.data?.rows ?? {
    total: job.processedIPs,
    successful: job.successfulIPs,
    failed: job.failedIPs,
    filtered: job.filteredIPs,
  };
  const remaining = estimateRemaining(elapsed, rows.total, job.totalIPs);
  const percent = percentOf(rows.total, job.totalIPs);

  const doCancel = () => {
    cancel.mutate(job.id, { onSettled: () => setConfirming(false) });
  };

  const doRestart = () => {
    restart.mutate(job.id, {
      // The restarted job runs again: its next "failed" toasts again.
      onSuccess: () => (lastStatus.current = "pending"),
    });
  };

  const canDownload = job.processedIPs > 0 || job.partialSaveAvailable;

  return (
    <article aria-labelledby="processing-title">
      <header className="title-row">
        <h2 id="processing-title">Processing IP Addresses</h2>
        {connected && (
          <span className="badge badge-live" aria-live="polite">
            <span className="live-dot" aria-hidden="true" /> Live Updates
          </span>
        )}
      </header>

      {job.status === "failed" && (
        <p className="notice notice-error" role="alert">
          Processing failed:{" "}
          {job.error || "There was an error processing your file"}
        </p>
      )}
      {job.status === "cancelled" && (
        <p className="notice notice-warning">
          This job was cancelled. The IP addresses processed before it stopped
          can still be downloaded.
        </p>
      )}

      <section aria-label="Overall progress">
        <div className="progress-label">
          <span>Overall Progress</span>
          <strong>{percent}%</strong>
        </div>
        <progress
          value={rows.total}
          max={Math.max(job.totalIPs, 1)}
          aria-label="Overall progress"
        />
        <p>
          Processed {formatCount(rows.total)} of {formatCount(job.totalIPs)}
          {" "}
          IP addresses
        </p>
      </section>

      <dl className="details-grid">
        <div>
          <dt>File Name</dt>
          <dd className="file-name">
            <FileName name={job.originalFileName || job.fileName} />
          </dd>
        </div>
        <div>
          <dt>Total IPs</dt>
          {
            /* Rows of the file: an address may repeat (the summary says how
              many distinct addresses once the job is done). */
          }
          <dd>
            {formatCount(job.totalIPs)} <span className="muted">rows</span>
          </dd>
        </div>
        <div>
          <dt>Successful Lookups</dt>
          <dd className="text-success">{formatCount(rows.successful)}</dd>
        </div>
        <div>
          <dt>Failed Lookups</dt>
          <dd className="text-error">{formatCount(rows.failed)}</dd>
        </div>
        <div>
          <dt>Filtered IPs (ISPs)</dt>
          <dd>{formatCount(rows.filtered)}</dd>
        </div>
        <div>
          <dt>Time Elapsed</dt>
          <dd>{formatDuration(elapsed)}</dd>
        </div>
        <div>
          <dt>Est. Time Remaining</dt>
          <dd>
            {final
              ? formatDuration(0)
              : remaining === null
              ? "Calculating..."
              : formatDuration(remaining)}
          </dd>
        </div>
      </dl>
      <HostnameLookupsLine job={job} />

      {
        /* The same summary as the results, fetched again as the job's rows
          grow, so its counts are the progress's. */
      }
      <JobSummarySection
        jobId={job.id}
        pollMs={final ? false : 2000}
        refreshOn={job.processedIPs}
      />

      <LiveResultsList rows={liveRows} />

      <footer className="button-row">
        {canDownload
          ? (
            <a
              role="button"
              className="outline"
              href={downloadUrl(job.id)}
              target="_blank"
              rel="noopener"
            >
              Download Partial Results
            </a>
          )
          : (
            <button type="button" className="outline" disabled>
              Download Partial Results
            </button>
          )}
        {!final && (
          <button
            type="button"
            className="destructive"
            onClick={() => setConfirming(true)}
            disabled={cancel.isPending}
            aria-busy={cancel.isPending || undefined}
          >
            {cancel.isPending ? "Canceling..." : "Cancel Processing"}
          </button>
        )}
        {job.status === "failed" && (
          <button
            type="button"
            onClick={doRestart}
            disabled={restart.isPending}
            aria-busy={restart.isPending || undefined}
          >
            Restart
          </button>
        )}
        {final && (
          <button
            type="button"
            className="secondary"
            onClick={props.onProcessAnother}
          >
            Process Another File
          </button>
        )}
      </footer>

      {confirming && (
        <CancelJobDialog
          busy={cancel.isPending}
          onConfirm={doCancel}
          onCancel={() => setConfirming(false)}
        />
      )}
    </article>
  );
}
