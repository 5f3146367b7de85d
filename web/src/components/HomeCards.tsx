// The three cards under Home's flow: API Access, History, Bulk Processing.

import { Link } from "react-router";
import { useUploadSizes } from "../api/config.ts";
import { uploadSizeStory } from "../lib/upload_sizes.ts";

export function HomeCards() {
  const sizes = useUploadSizes();
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
        <p>
          Files of {sizes.known
            ? uploadSizeStory(sizes).mostRows
            : "millions of IP addresses"}, saved every 100 records.
        </p>
        <Link to="/bulk-processing">Learn More</Link>
      </article>
    </section>
  );
}
