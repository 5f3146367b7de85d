// Documentation: how to use the app, from upload to download, and what the
// added columns mean. Prerendered, so it reads without JavaScript.

import { Link } from "react-router";
import {
  ENRICHMENT_FIELD_TABLE,
  type FieldSpec,
} from "../../../shared/enrichment_fields.ts";
import {
  NETWORK_TYPE_LABELS,
  NETWORK_TYPES,
} from "../../../shared/network_types.ts";
import { useUploadSizes } from "../api/config.ts";
import { ScrollTable } from "../components/ScrollTable.tsx";
import { usePageTitle } from "../lib/use_page_title.ts";
import { useScrollToHash } from "../lib/use_scroll_to_hash.ts";

/** The option that adds a column, as the configure step names it. */
const GROUP_OPTION: Record<FieldSpec["group"], string> = {
  geolocation: "Geolocation",
  domain: "Domain Name",
  company: "Company Information",
  network: "Network Information",
  registration: "Registration data",
  always: "always",
};

/** Network types left out of the download. */
const FILTERED = new Set(["consumer_isp", "mobile"]);

export function DocsPage() {
  usePageTitle("Documentation");
  useScrollToHash();
  const sizes = useUploadSizes();
  return (
    <>
      <hgroup className="page-title">
        <h1>Documentation</h1>
        <p>
          How to enrich a file of IP addresses, and what the results mean.
        </p>
      </hgroup>
      <article id="upload">
        <h2>1. Upload a file</h2>
        <p>
          On the{" "}
          <Link to="/">home page</Link>, drop or choose a CSV, TSV, Excel
          (.xlsx) file, or a .csv.gz or .zip holding one CSV. The first row must
          name the columns; one column holds IP addresses (IPv4 or IPv6). A file
          may be up to {sizes.maxUploadMb} MB as sent
          {sizes.known ? "" : " (unless this server sets another limit)"}.
        </p>
        <p>
          Cells are read as logs hold them: a port (<code>1.2.3.4:443</code>,
          {" "}
          <code>[2001:db8::1]:80</code>), quotes and brackets are dropped, and
          an <code>X-Forwarded-For</code>{" "}
          chain gives its first public address. The column <code>ip_used</code>
          {" "}
          says which address was looked up when it is not the cell as it stands.
        </p>
      </article>
      <article id="configure">
        <h2>2. Choose the column and the data</h2>
        <p>
          Pick the column with the addresses (the app suggests one) and the data
          to add. Each option adds the columns listed{" "}
          <a href="#columns">below</a>. Domain Name asks DNS for each address's
          host name, which takes longest; leave it off when you do not need it.
        </p>
      </article>
      <article id="processing">
        <h2>3. Processing</h2>
        <p>
          The job runs in the background on the server: you may close the page
          and come back from{" "}
          <Link to="/history">History</Link>. Progress is saved as it goes, so a
          restart of the server loses no row. You can download the rows done so
          far at any time, or cancel the job; a cancelled job keeps its
          processed rows.
        </p>
      </article>
      <article id="results">
        <h2>4. Results and downloads</h2>
        <p>
          The results page shows how many rows were kept and filtered, the top
          companies, networks and places, and a preview you can filter. Download
          CSV gives your original rows, untouched and in order, with the new
          columns after them; Export Excel gives the same rows as .xlsx with a
          summary sheet. Each job has its own address (<code>/results/</code>
          and its number), which works in the browser that ran it.
        </p>
      </article>
      <article id="network-types">
        <h2>Network types and filtering</h2>
        <p>
          Every address gets a network type and a short reason. Consumer
          broadband and mobile addresses are people at home or on the move: they
          stay in the preview but are left out of the download, so the
          organisations in your list stand out.
        </p>
        <table>
          <thead>
            <tr>
              <th scope="col">Network type</th>
              <th scope="col">
                <code>network_type</code>
              </th>
              <th scope="col">In the download</th>
            </tr>
          </thead>
          <tbody>
            {NETWORK_TYPES.map((type) => (
              <tr key={type}>
                <td>{NETWORK_TYPE_LABELS[type]}</td>
                <td>
                  <code>{type}</code>
                </td>
                <td>{FILTERED.has(type) ? "No (filtered)" : "Yes"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </article>
      <article id="columns">
        <h2>Columns added to your file</h2>
        <ScrollTable
          label="Columns added to your file"
          columns={["Column", "Option", "Example", "Meaning"]}
        >
          {ENRICHMENT_FIELD_TABLE.map((field: FieldSpec) => (
            <tr key={field.name}>
              <td>
                <code>{field.name}</code>
              </td>
              <td>{GROUP_OPTION[field.group]}</td>
              <td>{String(field.example)}</td>
              <td>{field.description ?? ""}</td>
            </tr>
          ))}
        </ScrollTable>
        <p>
          Every row also gets <code>enrichment_success</code> and{" "}
          <code>enrichment_error</code>: why a row has no data (not an address,
          a private or reserved address, nothing known about it).
        </p>
      </article>
      <article id="more">
        <h2>More</h2>
        <p>
          Scripts and BigQuery use the <Link to="/api">lookup API</Link>.{" "}
          <Link to="/privacy">Privacy</Link>{" "}
          says what this server keeps and for how long;{" "}
          <Link to="/terms">Terms</Link>{" "}
          covers the data's licences; questions go to the{" "}
          <Link to="/contact">operator</Link>.
        </p>
      </article>
    </>
  );
}
