// One line saying how a job's host-name lookups ended, so a missing host
// name can be told apart: none exists, or no answer came in time.
import type { Job } from "../../../shared/wire.ts";
import { formatCount } from "../lib/format.ts";

/** "Host names: 41,200 found · 8,300 none exist · 500 timed out · 0 skipped" */
export function hostnameLookupsText(job: Job): string {
  const { answered, noName, timedOut, skipped } = job.hostnameLookups;
  return `Host names: ${formatCount(answered)} found · ${
    formatCount(noName)
  } none exist · ${formatCount(timedOut)} timed out · ${
    formatCount(skipped)
  } skipped`;
}

/** Nothing when the job does not look host names up. */
export function HostnameLookupsLine({ job }: { job: Job }) {
  if (!job.includeDomain || !job.hostnameLookups) return null;
  return (
    <p className="muted" data-testid="hostname-lookups">
      {hostnameLookupsText(job)}
    </p>
  );
}
