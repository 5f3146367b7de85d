// One line saying how a job's host-name lookups ended (lib/hostname_lookups),
// and one for its registration (RDAP) lookups when the job asked for them.
import type { Job } from "../../../shared/wire.ts";
import { formatCount } from "../lib/format.ts";
import { hostnameLookupsText } from "../lib/hostname_lookups.ts";

/** Nothing when the job does not look host names or registrations up. */
export function HostnameLookupsLine({ job }: { job: Job }) {
  const hosts = job.includeDomain && job.hostnameLookups;
  const registrations = job.includeRegistration && job.registrationLookups;
  return (
    <>
      {hosts && (
        <p className="muted" data-testid="hostname-lookups">
          {hostnameLookupsText(job.hostnameLookups)}
        </p>
      )}
      {registrations && (
        <p className="muted" data-testid="registration-lookups">
          Registration data: {formatCount(registrations.answered)} asked ·{" "}
          {formatCount(registrations.cached)} from the cache ·{" "}
          {formatCount(registrations.failed)}{" "}
          failed (those rows keep the AS-based answer)
        </p>
      )}
    </>
  );
}
