// API documentation: single lookup, BigQuery, batch, and rate limits. The
// examples use this server's own address once the page runs in a browser.

import { useServerConfig } from "../api/config.ts";
import { DataSources } from "../components/DataSources.tsx";
import { LookupTryIt } from "../components/LookupTryIt.tsx";
import { Tabs } from "../components/Tabs.tsx";
import { useHydrated } from "../lib/use_hydrated.ts";
import { usePageTitle } from "../lib/use_page_title.ts";
import { useScrollToHash } from "../lib/use_scroll_to_hash.ts";

const PLACEHOLDER_ORIGIN = "http://localhost:5000";

const EXAMPLE_ANSWER = `{
  "ip": "8.8.8.8",
  "success": true,
  "country": "United States",
  "country_code": "US",
  "region": "California",
  "city": "Mountain View",
  "latitude": 37.4056,
  "longitude": -122.0775,
  "hostname": "dns.google",
  "domain": "dns.google",
  "company": "Google LLC",
  "network_type": "hosting",
  "classification_reason": "curated hosting AS",
  "classification_confidence": 0.99,
  "isp": "Google LLC",
  "asn": "AS15169 Google LLC",
  "ispFiltered": false
}`;

export function ApiPage() {
  usePageTitle("API");
  useScrollToHash();
  const hydrated = useHydrated();
  const origin = hydrated ? location.origin : PLACEHOLDER_ORIGIN;
  const config = useServerConfig();
  const batchMax = (config.data?.batchMaxIps ?? 1000).toLocaleString("en-US");

  const single = (
    <>
      <p>
        <code>GET /api/lookup?ip=&lt;address&gt;</code>{" "}
        returns the geolocation, network and company data of one IPv4 or IPv6
        address as JSON. It needs no key.
      </p>
      <pre><code>{`curl "${origin}/api/lookup?ip=8.8.8.8"`}</code></pre>
      <p>Answer (values depend on the bundled databases):</p>
      <pre><code>{EXAMPLE_ANSWER}</code></pre>
      <p>
        An invalid address answers{" "}
        <code>
          {`{ "ip": "…", "success": false, "error": "Invalid IP address format" }`}
        </code>.
      </p>
      <LookupTryIt />
    </>
  );

  const bigquery = (
    <>
      <p>
        BigQuery calls this server as a{" "}
        <em>remote function</em>: BigQuery sends batches of rows to{" "}
        <code>POST /api/bigquery</code>{" "}
        and gets one JSON value back per row. The server must be reachable from
        Google Cloud, for example the Docker image deployed on Cloud Run.
      </p>
      <ol>
        <li>
          Deploy the image to Cloud Run and note its URL.
        </li>
        <li>
          Create a connection of type <code>CLOUD_RESOURCE</code>{" "}
          (<code>bq mk --connection --connection_type=CLOUD_RESOURCE ...</code>)
          and give its service account the Cloud Run Invoker role.
        </li>
        <li>Create the function and use it in a query:</li>
      </ol>
      <pre><code>{`CREATE FUNCTION mydataset.ip_enrich(ip STRING) RETURNS JSON
REMOTE WITH CONNECTION \`myproject.us.ip-enrich-connection\`
OPTIONS (
  endpoint = '${origin}/api/bigquery',
  max_batching_rows = 1000,
  user_defined_context = [("fields", "country,company,asn")]
);

SELECT ip,
       JSON_VALUE(info, '$.country') AS country,
       JSON_VALUE(info, '$.company') AS company,
       JSON_VALUE(info, '$.asn') AS asn
FROM (
  SELECT ip, mydataset.ip_enrich(ip) AS info
  FROM mydataset.visits
);`}</code></pre>
      <p>The request and answer that BigQuery and this server exchange:</p>
      <pre><code>{`curl -X POST "${origin}/api/bigquery" \\
  -H "Content-Type: application/json" \\
  -d '{"requestId":"1","calls":[["8.8.8.8"],["1.1.1.1"]],
       "userDefinedContext":{"fields":"country,company,asn"}}'

{"replies":[{"country":"United States","company":"Google LLC", ...}, ...]}`}</code></pre>
    </>
  );

  const batch = (
    <>
      <p>
        <code>POST /api/lookup/batch</code> looks up to {batchMax}{" "}
        addresses in one request and answers an array in the same order. An
        invalid entry fails alone.
      </p>
      <pre><code>{`curl -X POST "${origin}/api/lookup/batch" \\
  -H "Content-Type: application/json" \\
  -d '["8.8.8.8", "1.1.1.1", "81.2.69.142"]'`}</code></pre>
      <p>
        For whole files, upload a CSV on the home page: the job runs in the
        background, saves its progress every 100 records, filters consumer ISP
        addresses and lets you download CSV or Excel. The job routes (<code>
          /api/upload
        </code>, <code>/api/enrich</code>,{" "}
        <code>/api/jobs</code>) are described in the{" "}
        <a href="/api/openapi.json">OpenAPI document</a>.
      </p>
    </>
  );

  const perMinute = config.data?.rateLimitPerMinute;
  const burst = config.data?.rateLimitBurst;
  const limitText = perMinute === undefined
    ? "The operator of this server may limit the public lookup routes per client address."
    : perMinute > 0
    ? `This server allows ${
      perMinute.toLocaleString("en-US")
    } lookups per minute per client address${
      burst ? `, with bursts of up to ${burst.toLocaleString("en-US")}` : ""
    }; a batch counts as its number of addresses.`
    : "This server does not limit lookups.";

  return (
    <>
      <hgroup className="page-title" id="documentation">
        <h1>API Documentation</h1>
        <p>
          Look up IP addresses from scripts, curl or BigQuery. Every answer is
          JSON; all routes are on this server.
        </p>
      </hgroup>
      <Tabs
        label="API sections"
        items={[
          {
            id: "single-ip-lookup",
            label: "Single IP Lookup",
            content: single,
          },
          {
            id: "bigquery-integration",
            label: "BigQuery Integration",
            content: bigquery,
          },
          { id: "batch-processing", label: "Batch Processing", content: batch },
        ]}
      />
      <article id="rate-limits">
        <h2>Rate Limits</h2>
        <p>
          Lookups are answered from local databases, so no third-party provider
          limits apply. {limitText}
        </p>
        <p>
          A request over the limit is answered with status 429 and a{" "}
          <code>Retry-After</code>{" "}
          header that says how many seconds to wait. For large volumes use batch
          lookups or upload a CSV file.
        </p>
      </article>
      <article id="data-sources">
        <h2>Data Sources</h2>
        <p>
          Every answer comes from these databases (also in{" "}
          <code>GET /api/config</code>, <code>data</code>).
        </p>
        <DataSources />
      </article>
    </>
  );
}
