// One line saying how a job's host-name lookups ended (lib/hostname_lookups).
import type { Job } from "../../../shared/wire.ts";
import { hostnameLookupsText } from "../lib/hostname_lookups.ts";

/** Nothing when the job does not look host names up. */
export function HostnameLookupsLine({ job }: { job: Job }) {
  if (!job.includeDomain || !job.hostnameLookups) return null;
  return (
    <p className="muted" data-testid="hostname-lookups">
      {hostnameLookupsText(job.hostnameLookups)}
    </p>
  );
}
