// Bulk Processing: static information, prerendered so it reads without
// JavaScript.

import { Link } from "react-router";
import { useUploadSizes } from "../api/config.ts";
import { uploadSizeStory } from "../lib/upload_sizes.ts";
import { usePageTitle } from "../lib/use_page_title.ts";

export function BulkProcessingPage() {
  usePageTitle("Bulk Processing");
  const sizes = useUploadSizes();
  return (
    <>
      <hgroup className="page-title">
        <h1>Bulk Processing</h1>
        <p>Enrich CSV files of any size, safely, in the background.</p>
      </hgroup>
      <div className="grid">
        <article>
          <h2>Auto-save every 100 records</h2>
          <p>
            Progress is saved at least every 100 records. If the server stops or
            restarts, the job continues from its last save point: no row is lost
            and none is written twice. You can download the rows processed so
            far at any time, even while the job runs.
          </p>
        </article>
        <article>
          <h2>Millions of IPs</h2>
          <p>
            CSV files with millions of IP addresses are supported.{" "}
            {sizes.known && uploadSizeStory(sizes).rows}{" "}
            Lookups are answered from local databases, so there are no provider
            rate limits and each distinct address is looked up only once per
            file.
          </p>
        </article>
        <article>
          <h2>Automatic ISP filtering</h2>
          <p>
            Addresses of common consumer ISPs (for example Telstra, Comcast,
            Cox, Verizon and BT) are detected and left out of the download file,
            so business and organisation IPs stand out. The preview still shows
            them, marked "ISP Filtered: Yes".
          </p>
        </article>
      </div>
      <article>
        <h2>How it works</h2>
        <ol>
          <li>Upload a CSV file with a header row and a column of IPs.</li>
          <li>Choose the IP column and the data to add.</li>
          <li>
            Follow the progress live, or leave and come back through History.
          </li>
          <li>Download the enriched CSV or Excel file.</li>
        </ol>
        <p>
          <Link to="/" role="button">Start Processing Now</Link>
        </p>
      </article>
    </>
  );
}
