// API documentation: single lookup, BigQuery, batch, and rate limits. The
// examples use this server's own address once the page runs in a browser.

import {
  EXAMPLE_LOOKUP,
  EXAMPLE_LOOKUP_IP,
} from "../../../shared/lookup_example.ts";
import { BATCH_MAX_IPS } from "../../../shared/wire.ts";
import { useServerConfig } from "../api/config.ts";
import { DataSources } from "../components/DataSources.tsx";
import { LookupTryIt } from "../components/LookupTryIt.tsx";
import { Tabs } from "../components/Tabs.tsx";
import { useHydrated } from "../lib/use_hydrated.ts";
import { usePageTitle } from "../lib/use_page_title.ts";
import { useScrollToHash } from "../lib/use_scroll_to_hash.ts";

const PLACEHOLDER_ORIGIN = "http://localhost:5000";

export function ApiPage() {
  usePageTitle("API");
  useScrollToHash();
  const hydrated = useHydrated();
  const origin = hydrated ? location.origin : PLACEHOLDER_ORIGIN;
  const config = useServerConfig();
  const batchMaxIps = config.data?.batchMaxIps ?? BATCH_MAX_IPS;
  const batchMax = batchMaxIps.toLocaleString("en-US");
  const perMinute = config.data?.rateLimitPerMinute;
  const burst = config.data?.rateLimitBurst;
  const limitText = perMinute === undefined
    ? "The operator of this server may limit the public lookup routes per client address."
    : perMinute > 0
    ? `This server allows ${
      perMinute.toLocaleString("en-US")
    } requests per minute per client address${
      burst ? `, with bursts of up to ${burst.toLocaleString("en-US")}` : ""
    }; a batch or a BigQuery call counts once, whatever it holds.`
    : "This server does not limit lookups.";
  const bigQueryFit = perMinute && burst
    ? `On this server a query's first ${
      (burst * batchMaxIps).toLocaleString("en-US")
    } rows go at once and then ${
      (Math.round(perMinute / 60 * batchMaxIps)).toLocaleString("en-US")
    } rows a second.`
    : "";

  const single = (
    <>
      <p>
        <code>GET /api/lookup?ip=&lt;address&gt;</code>{" "}
        returns the geolocation, network and company data of one IPv4 or IPv6
        address as JSON. It needs no key.
      </p>
      <pre><code>{`curl "${origin}/api/lookup?ip=${EXAMPLE_LOOKUP_IP}"`}</code></pre>
      <p>Answer (values depend on the bundled databases):</p>
      <pre><code>{JSON.stringify(EXAMPLE_LOOKUP, null, 2)}</code></pre>
      <p>
        An answer about the address is status 200, and <code>success</code>{" "}
        says whether it has data. Text that is not an address, a private or
        reserved address and an address no database knows answer{" "}
        <code>success: false</code> with the reason, e.g.{" "}
        <code>
          {`{ "ip": "10.0.0.1", "success": false, "error": "Private address (RFC 1918), not on the public internet" }`}
        </code>. Status 400 means the request itself cannot be read: no{" "}
        <code>ip</code>, or an unknown field in <code>fields=</code>.
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
  max_batching_rows = ${batchMaxIps},
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
      <p>
        Keep{" "}
        <code>max_batching_rows = {batchMaxIps}</code>: without it BigQuery
        picks its own batch size and may send more rows than a call may hold.
        Each call counts once against the rate limit, however many rows it
        holds; BigQuery sends its calls in parallel and retries a 429 answer on
        its own, a second or two later. {bigQueryFit}
      </p>
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

  return (
    <>
      <hgroup className="page-title">
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
