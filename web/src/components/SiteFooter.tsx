// Footer: copyright, privacy, terms and contact, and the DB-IP attribution
// that the data licence asks for on every page that shows results.

import { Link } from "react-router";
import { SITE_NAME } from "../lib/use_page_title.ts";
import { DbIpAttribution } from "./DbIpAttribution.tsx";

export function SiteFooter() {
  return (
    <footer className="site-footer">
      <div className="container">
        <p>
          © {new Date().getFullYear()} {SITE_NAME}. All rights reserved.
        </p>
        <nav aria-label="Footer">
          <ul>
            <li>
              <Link to="/privacy">Privacy Policy</Link>
            </li>
            <li>
              <Link to="/terms">Terms of Service</Link>
            </li>
            <li>
              <Link to="/contact">Contact Us</Link>
            </li>
          </ul>
        </nav>
        <DbIpAttribution />
      </div>
    </footer>
  );
}
