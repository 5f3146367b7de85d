// Terms: the service as is, and the licences of the data it adds, with the
// attribution they ask for. Prerendered, so it reads without JavaScript.

import { Link } from "react-router";
import { TableHead } from "../components/ScrollTable.tsx";
import { usePageTitle } from "../lib/use_page_title.ts";

export function TermsPage() {
  usePageTitle("Terms");
  return (
    <>
      <hgroup className="page-title">
        <h1>Terms and data licences</h1>
        <p>What you may rely on, and what you owe the data's sources.</p>
      </hgroup>
      <article>
        <h2>Terms of use</h2>
        <p>
          This is free, self-hosted software run by the operator of this server
          for its users; there are no fees and no accounts. The service and its
          data are provided as is, without warranty: geolocation is approximate
          (often the city of a network's office, not of a person), and a network
          type is an estimate, given with how confident it is. Do not use the
          results to identify or make decisions about individual people. Only
          upload files you are allowed to process; the{" "}
          <Link to="/privacy">privacy page</Link> says what this server keeps.
        </p>
      </article>
      <article id="data-licences">
        <h2>Data licences</h2>
        <table>
          <TableHead columns={["Data", "Source", "Licence"]} />
          <tbody>
            <tr>
              <td>Country, region, city, latitude, longitude</td>
              <td>
                <a href="https://db-ip.com">DB-IP</a> Lite City
              </td>
              <td>CC BY 4.0</td>
            </tr>
            <tr>
              <td>AS number and organisation (ISP, company)</td>
              <td>
                ip-location-db ASN tables (RouteViews, the regional internet
                registries, DB-IP)
              </td>
              <td>CC BY 4.0</td>
            </tr>
            <tr>
              <td>Network type of ASes it labels (part of ISP filtering)</td>
              <td>
                <a href="https://github.com/NU-AquaLab/linnaeus">Linnaeus</a>
                {" "}
                AS labels, its train split
              </td>
              <td>MIT</td>
            </tr>
            <tr>
              <td>Domain of a host name</td>
              <td>Public Suffix List</td>
              <td>MPL 2.0</td>
            </tr>
            <tr>
              <td>Host names</td>
              <td>reverse DNS, asked when you choose Domain Name</td>
              <td />
            </tr>
          </tbody>
        </table>
        <p>
          CC BY 4.0 lets you use and share the results, including commercially,
          if you credit the source. Pages showing results here carry the link
          {" "}
          <a href="https://db-ip.com">IP Geolocation by DB-IP</a>; when you
          publish data produced with this service, keep that credit.
        </p>
      </article>
    </>
  );
}
