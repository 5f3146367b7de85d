// Any unknown path.

import { Link } from "react-router";
import { usePageTitle } from "../lib/use_page_title.ts";

export function NotFoundPage() {
  usePageTitle("404 Page Not Found");
  return (
    <article className="not-found">
      <h1>404 Page Not Found</h1>
      <p>
        The page you are looking for does not exist or has been moved.
      </p>
      <p>
        <Link to="/" role="button">Go to Home</Link>
      </p>
    </article>
  );
}
