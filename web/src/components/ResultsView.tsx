// Results view: downloads, the completion banner, the job's summary (row
// counts that add up, duration, charts and map), host-name outcomes, the
// filtered, paginated preview and Process Another File.

import { useCallback, useEffect, useState } from "react";
import { Link } from "react-router";
import type { Job } from "../../../shared/wire.ts";
import { isNotFound, messageOf } from "../api/http.ts";
import { downloadUrl, isFinal, useJobPreview } from "../api/jobs.ts";
import type { PreviewFilters } from "../api/queries.ts";
import {
  formatCount,
  formatDuration,
  formatTimeOfDay,
  secondsBetween,
} from "../lib/format.ts";
import { clampPage, PAGE_SIZE, shownRange } from "../lib/pagination.ts";
import { showToast } from "../lib/toast.ts";
import { HostnameLookupsLine } from "./HostnameLookupsLine.tsx";
import { JobNotHere } from "./JobNotHere.tsx";
import { Pagination } from "./Pagination.tsx";
import { Tile } from "./Tile.tsx";
import { PreviewFilterBar } from "./PreviewFilterBar.tsx";
import { ResultsPreviewTable } from "./ResultsPreviewTable.tsx";
import { JobSummarySection } from "./summary/JobSummarySection.tsx";
import { DataSources } from "./DataSources.tsx";

interface Props {
  jobId: number;
  onProcessAnother: () => void;
}

export function ResultsView({ jobId, onProcessAnother }: Props) {
  const [page, setPage] = useState(1);
  const [filters, setFilters] = useState<PreviewFilters>({});
  const preview = useJobPreview(jobId, page, PAGE_SIZE, filters);
  // New filters start at their first page.
  const changeFilters = useCallback((next: PreviewFilters) => {
    setFilters(next);
    setPage(1);
  }, []);
  const filtering = !!(filters.networkType || filters.status ||
    filters.text?.trim());

  const notHere = preview.isError && isNotFound(preview.error);
  useEffect(() => {
    // A job that is not there gets its own words, not an error toast.
    if (preview.isError && !isNotFound(preview.error)) {
      showToast({
        title: "Error loading results",
        description: messageOf(preview.error, "Failed to load results preview"),
        variant: "destructive",
      });
    }
  }, [preview.isError, preview.error]);

  if (preview.isPending) {
    return (
      <article aria-busy="true">
        <h2>Loading Results...</h2>
      </article>
    );
  }
  if (notHere && !preview.data) return <JobNotHere jobId={jobId} />;
  if (preview.isError && !preview.data) {
    return (
      <article>
        <h2>Results Unavailable</h2>
        <p>Unable to load results. Please try again later.</p>
        <button type="button" className="secondary" onClick={onProcessAnother}>
          Process Another File
        </button>
      </article>
    );
  }

  const { job, preview: rows, totalResults } = preview.data;
  const totalPages = Math.max(1, preview.data.totalPages || 1);
  const currentPage = preview.data.currentPage || page;
  const range = shownRange(currentPage, PAGE_SIZE, totalResults);

  return (
    <article aria-labelledby="results-title">
      <header className="title-row">
        <h2 id="results-title">Enrichment Results</h2>
        <div className="button-row">
          <button
            type="button"
            onClick={() => location.assign(downloadUrl(job.id))}
          >
            Download CSV
          </button>
          <button
            type="button"
            className="outline"
            onClick={() => {
              showToast({
                title: "Export Excel",
                description: "Your Excel download is starting.",
              });
              location.assign(downloadUrl(job.id, "xlsx"));
            }}
          >
            Export Excel
          </button>
        </div>
      </header>

      <StatusBanner job={job} />

      <JobSummarySection
        jobId={job.id}
        pollMs={isFinal(job.status) ? false : 2000}
        extraTiles={<DurationTile job={job} />}
      />
      <HostnameLookupsLine job={job} />
      <DataSources jobVersion={job.dataVersion ?? null} />

      <h3>Results Preview</h3>
      <PreviewFilterBar filters={filters} onChange={changeFilters} />
      <ResultsPreviewTable
        rows={rows}
        emptyText={filtering ? "No rows match these filters." : undefined}
      />
      <div className="pagination-row">
        <p className="muted" aria-live="polite">
          Showing {formatCount(range.from)} to {formatCount(range.to)} of{" "}
          {formatCount(totalResults)}
          {preview.data.totalAtLeast ? "+" : ""}{" "}
          {filtering ? "matching results" : "results"}
        </p>
        {totalPages > 1 && (
          <Pagination
            page={currentPage}
            totalPages={totalPages}
            onPage={(next) => setPage(clampPage(next, totalPages))}
          />
        )}
      </div>

      <footer className="button-row">
        <button type="button" className="secondary" onClick={onProcessAnother}>
          Process Another File
        </button>
      </footer>
    </article>
  );
}

function StatusBanner({ job }: { job: Job }) {
  const filtered = job.filteredIPs > 0
    ? `${
      formatCount(job.filteredIPs)
    } common ISP IP addresses have been filtered from the download file`
    : "No common ISP IP addresses were detected";
  if (job.status === "completed") {
    return (
      <div className="banner banner-success" role="status">
        <strong>Processing complete</strong>
        <p>
          Successfully processed {formatCount(job.successfulIPs)} of{" "}
          {formatCount(job.totalIPs)} IP addresses
        </p>
        <p>{filtered}</p>
      </div>
    );
  }
  if (job.status === "cancelled" || job.status === "failed") {
    return (
      <div className="banner banner-warning" role="status">
        <strong>
          {job.status === "cancelled"
            ? "Processing cancelled"
            : "Processing failed"}
        </strong>
        <p>
          {formatCount(job.processedIPs)} of {formatCount(job.totalIPs)}{" "}
          IP addresses were processed; the download holds those rows.
          {job.error ? ` ${job.error}` : ""}
        </p>
        <p>{filtered}</p>
      </div>
    );
  }
  return (
    <div className="banner banner-info" role="status">
      <strong>Processing in progress</strong>
      <p>
        {formatCount(job.processedIPs)} of {formatCount(job.totalIPs)}{" "}
        IP addresses processed so far.{" "}
        <Link to={`/?jobId=${job.id}`}>Continue Monitoring</Link>
      </p>
    </div>
  );
}

/** How long the job took; when it finished is the note. */
function DurationTile({ job }: { job: Job }) {
  return (
    <Tile
      testId="duration"
      label="Duration"
      value={job.completedAt
        ? formatDuration(secondsBetween(job.createdAt, job.completedAt))
        : "N/A"}
      note={job.completedAt
        ? `finished at ${formatTimeOfDay(job.completedAt)}`
        : "not finished yet"}
    />
  );
}
