// Server rendering of the summary panel: must not touch the DOM.
import { renderToString } from "react-dom/server";
import { SummaryPanel } from "../../src/components/summary/SummaryPanel.tsx";
import { FIXTURE } from "./fixture.ts";

export function render(): string {
  return renderToString(<SummaryPanel summary={FIXTURE} running />);
}
