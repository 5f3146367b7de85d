// Contact: who runs this server (CONTACT_URL or CONTACT_EMAIL). Prerendered;
// the server writes its contact into the page, so it reads without
// JavaScript.

import { Link } from "react-router";
import { OperatorContactLink } from "../components/OperatorContactLink.tsx";
import { usePageTitle } from "../lib/use_page_title.ts";

export function ContactPage() {
  usePageTitle("Contact");
  return (
    <>
      <hgroup className="page-title">
        <h1>Contact</h1>
        <p>This service is run by the operator of this server.</p>
      </hgroup>
      <article>
        <p>
          Questions about this server, its data or your jobs, and requests to
          delete them, go to its operator: <OperatorContactLink />.
        </p>
        <p>
          How to use the app is in the{" "}
          <Link to="/docs">documentation</Link>; what is kept and for how long
          on the <Link to="/privacy">privacy page</Link>.
        </p>
      </article>
    </>
  );
}
