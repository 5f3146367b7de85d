// One chart: Observable Plot draws it in the browser at the container's
// width (and again when that changes); the server render and a browser
// without JavaScript get the caption, the text alternative and the chart's
// data as a table, captioned with the chart's title.

import { useEffect, useRef } from "react";
import { type Column, DataTable } from "./DataTable.tsx";

interface Props<T> {
  title: string;
  /** The chart's text alternative: a sentence with its main figures. */
  description: string;
  /** Builds the chart for a width in pixels; runs in the browser only. */
  draw: (width: number) => Promise<Element>;
  /** Redraws when this changes (the data's identity). */
  data: unknown;
  columns: Column<T>[];
  rows: readonly T[];
}

export function PlotFigure<T>(
  { title, description, draw, data, columns, rows }: Props<T>,
) {
  const box = useRef<HTMLDivElement>(null);
  const drawRef = useRef(draw);
  drawRef.current = draw;

  // DOM-only: effects do not run during server rendering.
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    let width = 0;
    let stale = false;
    const redraw = async () => {
      const next = Math.floor(element.clientWidth);
      if (next === width || next <= 0) return;
      width = next;
      const chart = await drawRef.current(width);
      if (stale) return;
      chart.setAttribute("role", "img");
      chart.setAttribute("aria-label", description);
      // The chart is one image with one text alternative: Plot's names for
      // its parts (aria-label on <g>, not allowed there) become data-part.
      for (const part of chart.querySelectorAll("[aria-label]")) {
        part.setAttribute("data-part", part.getAttribute("aria-label")!);
        part.removeAttribute("aria-label");
      }
      element.replaceChildren(chart);
    };
    redraw();
    const observer = new ResizeObserver(() => redraw());
    observer.observe(element);
    return () => {
      stale = true;
      observer.disconnect();
    };
  }, [data, description]);

  return (
    <figure className="summary-figure">
      <figcaption>{title}</figcaption>
      <div className="summary-plot" ref={box} />
      <p className="summary-alt">{description}</p>
      <DataTable caption={title} columns={columns} rows={rows} />
    </figure>
  );
}
