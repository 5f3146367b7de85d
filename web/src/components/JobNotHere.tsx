// What a results link shows when the server answers that the job is not
// there: with private jobs (JOBS_VISIBILITY=private, the default) it may be
// another browser session's, so say so, and how an operator shares jobs.

import { Link } from "react-router";
import { useServerConfig } from "../api/config.ts";

export function JobNotHere({ jobId }: { jobId: number }) {
  const { data } = useServerConfig();
  const shared = data?.jobsVisibility === "shared";
  return (
    <article>
      <h2>Job {jobId} is not available here</h2>
      {shared
        ? (
          <p>
            This server has no job{" "}
            {jobId}: it was deleted (Clear Completed Jobs removes completed jobs
            and their results) or never existed.
          </p>
        )
        : (
          <>
            <p>
              Jobs on this server are private: each belongs to the browser
              session that started it, so a results link opened in another
              browser, or after cookies were cleared, shows nothing. Job {jobId}
              {" "}
              is another visitor's, was deleted, or does not exist.
            </p>
            <p>
              To let everyone open every job's results, the operator of this
              server can set <code>JOBS_VISIBILITY=shared</code>.
            </p>
          </>
        )}
      <p>
        <Link to="/history">Your jobs</Link> · <Link to="/">Upload a file</Link>
      </p>
    </article>
  );
}
