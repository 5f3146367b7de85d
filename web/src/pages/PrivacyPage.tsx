// Privacy: what this server keeps, where, and for how long, as the code
// does it (uploads, jobs and their results, sessions, caches, logs).
// Prerendered, so it reads without JavaScript.

import { Link } from "react-router";
import { OperatorContactLink } from "../components/OperatorContactLink.tsx";
import { usePageTitle } from "../lib/use_page_title.ts";

export function PrivacyPage() {
  usePageTitle("Privacy");
  return (
    <>
      <hgroup className="page-title">
        <h1>Privacy</h1>
        <p>What this server keeps, and for how long.</p>
      </hgroup>
      <article>
        <h2>Your files and results</h2>
        <ul>
          <li>
            <strong>An uploaded file</strong>{" "}
            is stored on this server as it was sent (a spreadsheet or archive as
            the CSV it holds). If no job is started from it, it is deleted after
            a day.
          </li>
          <li>
            <strong>A job</strong>{" "}
            keeps its file, its settings, its counts and its results (your rows
            with the added columns) until it is deleted: "Clear Completed Jobs"
            on the <Link to="/history">History</Link>{" "}
            page deletes completed jobs with their results and files at once.
            Nothing deletes a job by age, and jobs that did not complete stay
            until the operator removes them.
          </li>
          <li>
            Files and results stay on this server (and in the storage its
            operator set up for it). The addresses you send are not passed to
            any other service, except host-name (reverse DNS) queries to the DNS
            servers the operator configured, when Domain Name is on, and
            registration (RDAP) queries when the operator turned them on and you
            ask for registration data.
          </li>
        </ul>
      </article>
      <article>
        <h2>Your session</h2>
        <p>
          Your browser gets one cookie,{" "}
          <code>session</code>: a random id, signed by the server, that says
          which jobs are yours. Nothing else is kept about the session on the
          server, and no other cookie, tracker or analytics is used. Unless the
          operator shares jobs between everyone, only the browser that started a
          job sees it; clearing your cookies loses access to your jobs (they
          stay on the server until deleted).
        </p>
      </article>
      <article>
        <h2>Lookups and logs</h2>
        <p>
          The lookup API keeps nothing about the addresses it is asked for. To
          apply its rate limits the server counts requests per client address
          (or API key), and upload sizes per session over a day, in memory only:
          a restart forgets them. Registration answers, when that option is on,
          are cached for 30 days by default. The server's log records jobs and
          errors, not the addresses looked up or the contents of files.
        </p>
      </article>
      <article>
        <h2>Questions and deletion</h2>
        <p>
          To have something removed, or to ask what this server holds, contact
          its operator: <OperatorContactLink />.
        </p>
      </article>
    </>
  );
}
