// deno task eval:classifier — precision, recall and confusion matrix of the
// "filtered" decision (consumer_isp + mobile) on eval/networks.csv, for the
// development part and the held-out part, new classifier and current one.
import Papa from "papaparse";
import { buildAsFeatures } from "../server/classification/as_features.ts";
import { loadAsFeatures } from "../server/classification/feature_cache.ts";
import {
  classify,
  type CuratedLists,
  type NetworkKind,
} from "../server/classification/decide.ts";
import { loadCuratedLists } from "../server/classification/lists.ts";
import { NetworkClassifier } from "../server/classification/network_classifier.ts";
import {
  IspClassifier,
  loadClassifierData,
} from "../server/enrichment/isp_classifier.ts";
import { NETWORK_TYPES } from "../shared/network_types.ts";
import { ASN_PATHS, GEO_PATHS, loadBundled } from "./bundled.ts";

const here = new URL(".", import.meta.url).pathname;
const KINDS: readonly NetworkKind[] = NETWORK_TYPES;
interface Row {
  asn: string;
  sample_ip: string;
  label: NetworkKind;
  split: string;
  org: string;
}
const rows = Papa.parse<Row>(
  await Deno.readTextFile(`${here}networks.csv`),
  { header: true, skipEmptyLines: true },
).data;

const { data, table, geo } = await loadBundled();
const dataDir = Deno.env.get("DATA_DIR") ?? `${here}../data`;
const loaded = await loadAsFeatures(
  dataDir,
  [...ASN_PATHS, ...GEO_PATHS],
  () => buildAsFeatures(data, geo),
);
console.log(
  `features: ${loaded.index.size} ASes, ${
    loaded.built ? "built" : "loaded"
  } in ${loaded.ms.toFixed(0)} ms (${loaded.path}, ${
    ((await Deno.stat(loaded.path)).size / 1e6).toFixed(1)
  } MB)`,
);
const lists = await loadCuratedLists();
const old = new IspClassifier(
  await loadClassifierData(
    `${here}../server/data/consumer_isps.txt`,
    `${here}../server/data/hosting_asns.txt`,
  ),
);

type Predict = (row: Row, asn: number, org: string) => {
  type: NetworkKind;
  filtered: boolean;
  reason?: string;
};

function report(title: string, part: Row[], predict: Predict, verbose = false) {
  let tp = 0, fp = 0, fn = 0;
  const matrix = new Map<string, number>();
  const errors: string[] = [];
  for (const row of part) {
    const asn = Number(row.asn);
    const org = table.lookup(row.sample_ip, 4)?.org ?? row.org;
    const got = predict(row, asn, org);
    const want = row.label === "consumer_isp" || row.label === "mobile";
    if (got.filtered && want) tp++;
    else if (got.filtered) fp++;
    else if (want) fn++;
    const key = `${row.label}>${got.type}`;
    matrix.set(key, (matrix.get(key) ?? 0) + 1);
    if (got.filtered !== want) {
      errors.push(
        `  AS${asn} ${org} [${row.label}] -> ${got.type}: ${got.reason ?? ""}`,
      );
    }
  }
  const precision = tp / (tp + fp), recall = tp / (tp + fn);
  console.log(
    `\n${title}: ${part.length} networks, filtered precision ${
      precision.toFixed(3)
    } recall ${recall.toFixed(3)} (tp ${tp}, fp ${fp}, fn ${fn})`,
  );
  const short = (k: string) =>
    k.replace("consumer_isp", "consumer").slice(0, 9);
  console.log(
    "  label \\ got".padEnd(16) +
      KINDS.map((k) => short(k).padStart(10)).join(""),
  );
  for (const want of KINDS) {
    console.log(
      `  ${short(want)}`.padEnd(16) +
        KINDS.map((k) => String(matrix.get(`${want}>${k}`) ?? 0).padStart(10))
          .join(""),
    );
  }
  if (verbose) { for (const e of errors) console.log(e); }
  return { precision, recall };
}

const newPredict = (l: CuratedLists): Predict => (_row, asn, org) =>
  classify(loaded.index.get(asn), { asn, org, lists: l });
const oldPredict: Predict = (_row, asn, org) => {
  const c = old.classify(asn, org)!;
  return { type: c.networkType, filtered: c.consumer };
};

const dev = rows.filter((r) => r.split === "dev");
const heldout = rows.filter((r) => r.split === "heldout");
// The held-out networks taken out of every curated list: what the evidence
// alone does for networks nobody listed.
const blindTo = (part: Row[]): CuratedLists => {
  const asns = new Set(part.map((r) => Number(r.asn)));
  const without = (s: Set<number>) =>
    new Set([...s].filter((a) => !asns.has(a)));
  return {
    consumer: without(lists.consumer),
    mobile: without(lists.mobile),
    hosting: without(lists.hosting),
    transit: without(lists.transit),
    education: without(lists.education),
  };
};
const verbose = Deno.args.includes("--errors");
console.log(
  `${rows.length} labelled networks, ${
    new Set(rows.map((r) => (r as unknown as { country: string }).country)).size
  } countries`,
);
report("NEW classifier, development part", dev, newPredict(lists), verbose);
report(
  "NEW classifier, development part, its ASNs removed from every curated list",
  dev,
  newPredict(blindTo(dev)),
  verbose,
);
report("NEW classifier, HELD-OUT part", heldout, newPredict(lists), verbose);
// The mobile, transit and R&E lists were written with this set; the consumer
// and hosting lists predate it. Held-out ASNs out of the new lists only:
const newListsBlindTo = (part: Row[]): CuratedLists => ({
  ...blindTo(part),
  consumer: lists.consumer,
  hosting: lists.hosting,
});
report(
  "NEW classifier, development part, its ASNs removed from the lists written with this set",
  dev,
  newPredict(newListsBlindTo(dev)),
  verbose,
);
report(
  "NEW classifier, HELD-OUT part, its ASNs removed from the lists written with this set (mobile, transit, R&E)",
  heldout,
  newPredict(newListsBlindTo(heldout)),
  verbose,
);
report(
  "NEW classifier, HELD-OUT part, its ASNs removed from every curated list",
  heldout,
  newPredict(blindTo(heldout)),
  verbose,
);
report(
  "CURRENT classifier (isp_classifier.ts), development part",
  dev,
  oldPredict,
);
report(
  "CURRENT classifier (isp_classifier.ts), HELD-OUT part",
  heldout,
  oldPredict,
);

// Cost per address as the engine would call it (network decision memoised).
const engineClassifier = new NetworkClassifier({
  features: loaded.index.columns,
  lists: {
    consumer: [...lists.consumer],
    mobile: [...lists.mobile],
    hosting: [...lists.hosting],
    transit: [...lists.transit],
    education: [...lists.education],
  },
  overrides: [],
});
const probes = rows.map((r) => {
  const info = table.lookup(r.sample_ip, 4)!;
  return [r.sample_ip, info.asn, info.org] as const;
});
const calls = 200_000;
const started = performance.now();
for (let i = 0; i < calls; i++) {
  const [ip, asn, org] = probes[i % probes.length];
  engineClassifier.classify(
    ip,
    asn,
    org,
    i % 2 ? "c-1-2-3-4.example.net" : null,
    null,
  );
}
console.log(
  `\nNetworkClassifier.classify: ${
    ((performance.now() - started) * 1000 / calls).toFixed(2)
  } µs per address (${calls} calls, half with a host name)`,
);
