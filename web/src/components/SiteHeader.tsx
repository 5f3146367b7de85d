// Header: logo link home, History, Documentation and API; below 768 px the
// links sit in a slide-out menu (a <details>, so it opens without JavaScript).

import { useEffect, useRef } from "react";
import { Link, useLocation } from "react-router";
import { SITE_NAME } from "../lib/use_page_title.ts";

const LINKS = [
  { to: "/history", label: "History" },
  { to: "/docs", label: "Documentation" },
  { to: "/api", label: "API" },
];

export function SiteHeader() {
  const menu = useRef<HTMLDetailsElement>(null);
  const location = useLocation();

  // Close the menu after navigating and on Escape.
  useEffect(() => {
    if (menu.current) menu.current.open = false;
  }, [location.pathname, location.hash]);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape" && menu.current?.open) {
        menu.current.open = false;
        menu.current.querySelector("summary")?.focus();
      }
    };
    globalThis.addEventListener("keydown", onKey);
    return () => globalThis.removeEventListener("keydown", onKey);
  }, []);

  const links = LINKS.map((link) => (
    <li key={link.label}>
      <Link to={link.to}>{link.label}</Link>
    </li>
  ));

  return (
    <header className="site-header">
      <nav className="container" aria-label="Main">
        <ul>
          <li>
            <Link to="/" className="logo" aria-label={`${SITE_NAME} home`}>
              <span aria-hidden="true" className="logo-mark">◉</span>{" "}
              <strong>{SITE_NAME}</strong>
            </Link>
          </li>
        </ul>
        <ul className="desktop-links">{links}</ul>
        <details className="mobile-menu" ref={menu}>
          <summary aria-label="Menu" role="button" className="outline">
            <span aria-hidden="true">☰</span> Menu
          </summary>
          <div className="mobile-menu-panel">
            <nav aria-label="Menu">
              <ul>{links}</ul>
            </nav>
          </div>
        </details>
      </nav>
    </header>
  );
}
