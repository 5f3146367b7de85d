// The three cards under Home's flow: API Access, History, Bulk Processing.

import { Link } from "react-router";

export function HomeCards() {
  return (
    <section className="grid home-cards" aria-label="More">
      <article>
        <h3>API Access</h3>
        <p>Look up single IPs or batches from scripts, curl or BigQuery.</p>
        <Link to="/api">View API documentation</Link>
      </article>
      <article>
        <h3>History</h3>
        <p>See earlier jobs, download their results or restart failed ones.</p>
        <Link to="/history">View processing history</Link>
      </article>
      <article>
        <h3>Bulk Processing</h3>
        <p>Files with millions of IPs, saved every 100 records.</p>
        <Link to="/bulk-processing">Learn More</Link>
      </article>
    </section>
  );
}
