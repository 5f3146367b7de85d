// The chart builders. Observable Plot, topojson-client and the world-atlas
// shapes are imported on first use, so they load as separate chunks and
// never during server rendering.
import { type Bar, barLayout, countsByNumericCode, shorten } from "./labels.ts";
import type { CountryCount } from "../../../../shared/summary.ts";

const BAR_HEIGHT = 22;

/** Horizontal bars, largest first, labels on the left, counts at the ends. */
export async function drawBars(
  bars: readonly Bar[],
  width: number,
  color: string,
): Promise<Element> {
  const Plot = await import("@observablehq/plot");
  // No bars: no axis either (an empty domain labels its ticks "0.000000").
  if (bars.length === 0) {
    return Plot.plot({
      width,
      height: 40,
      axis: null,
      style: { fontSize: "12px", background: "transparent", color: "inherit" },
      marks: [Plot.text(["No rows"], { frameAnchor: "middle" })],
    });
  }
  const { marginLeft, maxChars } = barLayout(width, bars.map((b) => b.label));
  return Plot.plot({
    width,
    height: Math.max(60, bars.length * BAR_HEIGHT + 40),
    marginLeft,
    marginRight: 48,
    style: { fontSize: "11px", background: "transparent", color: "inherit" },
    x: {
      label: "Rows",
      grid: true,
      axis: "top",
      ticks: Math.max(2, Math.floor(width / 120)),
    },
    y: { label: null, tickFormat: (label: string) => shorten(label, maxChars) },
    marks: [
      Plot.barX(bars, {
        x: "count",
        y: "label",
        fill: color,
        sort: { y: "-x" },
        title: (b: Bar) => `${b.label}: ${b.count.toLocaleString("en-US")}`,
      }),
      Plot.text(bars, {
        x: "count",
        y: "label",
        text: (b: Bar) => b.count.toLocaleString("en-US"),
        textAnchor: "start",
        dx: 4,
      }),
      Plot.ruleX([0]),
    ],
  });
}

interface CountryShape {
  type: "Feature";
  id?: string | number;
  properties: { name: string };
}

let shapes: Promise<CountryShape[]> | null = null;

/** The 110m world-atlas countries as GeoJSON features, loaded once. */
function countryShapes(): Promise<CountryShape[]> {
  shapes ??= Promise.all([
    import("topojson-client"),
    import("world-atlas/countries-110m.json"),
  ]).then(([topojson, atlas]) => {
    // deno-lint-ignore no-explicit-any
    const world = (atlas.default ?? atlas) as any;
    const collection = topojson.feature(
      world,
      world.objects.countries,
    ) as unknown as { features: CountryShape[] };
    return collection.features;
  });
  return shapes;
}

/** A world map, each country shaded by its rows. */
export async function drawWorldMap(
  countries: readonly CountryCount[],
  width: number,
): Promise<Element> {
  const [Plot, features] = await Promise.all([
    import("@observablehq/plot"),
    countryShapes(),
  ]);
  const counts = countsByNumericCode(countries);
  const value = (f: CountryShape) => counts.get(String(f.id ?? "")) ?? null;
  const map = Plot.plot({
    // No height: Plot fits it to the projection's aspect at this width.
    width,
    projection: { type: "equal-earth", domain: { type: "Sphere" } },
    style: { background: "transparent", color: "inherit" },
    color: {
      // sqrt from zero: a country with few rows still shows, lightly.
      type: "sqrt",
      domain: [0, Math.max(1, ...counts.values())],
      scheme: "blues",
      label: "Rows",
      unknown: "#e5e7eb",
    },
    marks: [
      Plot.sphere({ stroke: "#9ca3af" }),
      Plot.geo(features, {
        fill: value,
        stroke: "#fff",
        strokeWidth: 0.5,
        title: (f: CountryShape) => {
          const n = value(f);
          return `${f.properties.name}: ${
            n === null ? "no rows" : n.toLocaleString("en-US")
          }`;
        },
      }),
    ],
  });
  // The ramp legend centres its end ticks on its edges: margins give their
  // labels room, so the first ("0") is not clipped.
  const legend = map.legend("color", { marginLeft: 12, marginRight: 24 });
  const figure = document.createElement("div");
  if (legend) figure.append(legend);
  figure.append(map);
  return figure;
}
