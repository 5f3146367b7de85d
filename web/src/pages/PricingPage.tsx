// Pricing, and the short privacy, terms and contact notes the footer links to.

import { usePageTitle } from "../lib/use_page_title.ts";
import { useScrollToHash } from "../lib/use_scroll_to_hash.ts";

export function PricingPage() {
  usePageTitle("Pricing");
  useScrollToHash();
  return (
    <>
      <hgroup className="page-title">
        <h1>Pricing</h1>
        <p>Free to self-host.</p>
      </hgroup>
      <article>
        <h2>Free to self-host</h2>
        <p>
          This service is free software that you run on your own server. It
          needs no API keys and no account, and it has no usage fees: lookups
          are answered from databases bundled with it.
        </p>
      </article>
      <article>
        <h2>Data licences</h2>
        <p>
          Geolocation data comes from DB-IP Lite and network data from the
          ip-location-db ASN tables, both under the Creative Commons Attribution
          4.0 licence. The licence asks that every page showing results credits
          the source, which is why results pages carry the link{" "}
          <a href="https://db-ip.com">IP Geolocation by DB-IP</a>. If you
          publish data produced with this service, keep that attribution.
        </p>
      </article>
      <article id="privacy">
        <h2>Privacy Policy</h2>
        <p>
          Uploaded files and their results are stored only on the server that
          runs this service. They are not sent to third parties, except reverse
          DNS queries to the resolvers the operator configured. Clearing
          completed jobs deletes their records, results and files.
        </p>
      </article>
      <article id="terms">
        <h2>Terms of Service</h2>
        <p>
          The service and its data are provided as is, without warranty of
          accuracy. Geolocation is approximate.
        </p>
      </article>
      <article id="contact">
        <h2>Contact Us</h2>
        <p>
          For questions about this installation, contact the operator of this
          server.
        </p>
      </article>
    </>
  );
}
