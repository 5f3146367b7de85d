// How a job's host-name lookups ended, each outcome explained
// (lib/hostname_lookups), and a line for its registration (RDAP) lookups
// when the job asked for them.
import type { Job } from "../../../shared/wire.ts";
import { formatCount } from "../lib/format.ts";
import { hostnameOutcomes } from "../lib/hostname_lookups.ts";

/** Nothing when the job does not look host names or registrations up. */
export function HostnameLookupsLine({ job }: { job: Job }) {
  const hosts = job.includeDomain && job.hostnameLookups;
  const registrations = job.includeRegistration && job.registrationLookups;
  return (
    <>
      {hosts && (
        <div className="lookup-outcomes muted" data-testid="hostname-lookups">
          <p>Host names:</p>
          <ul>
            {hostnameOutcomes(hosts).map(({ text, meaning }) => (
              <li key={text}>
                <strong>{text}</strong>: {meaning}
              </li>
            ))}
          </ul>
        </div>
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
