// The summary panel alone on a page, with the app's stylesheet, for the
// browser test (tests/browser/summary_panel_test.ts builds it with Vite).
import "@picocss/pico/css/pico.min.css";
import "../../src/styles/base.css";
import "../../src/styles/layout.css";
import "../../src/styles/results.css";
import { createRoot } from "react-dom/client";
import { SummaryPanel } from "../../src/components/summary/SummaryPanel.tsx";
import { FIXTURE } from "./fixture.ts";

// ?empty: a summary with no companies (every row left out or failed).
const empty = new URLSearchParams(location.search).has("empty");

createRoot(document.getElementById("root")!).render(
  <SummaryPanel summary={empty ? { ...FIXTURE, topCompanies: [] } : FIXTURE} />,
);
