// deno task eval:classifier — how the network classifier meets networks
// nobody listed: precision and recall of the "filtered" decision
// (consumer_isp + mobile) in a cross-validation of the training data split
// by organisation and by AS, and on the parts never used to fit or to choose
// features: the held-out part of eval/networks.csv and Linnaeus's validation
// split (eval/linnaeus/), with their AS numbers taken out of every curated
// list, and as shipped; the reliability of classification_confidence; the
// cost per address. `--errors` lists the cross-validation's wrong answers
// (never the held-out part's); `--validation-errors` lists the wrong
// answers of the held-out part and the validation split (for the report,
// after the model is fixed); `--no-cv` skips the cross-validation; `--cv-only` stops before the held-out part
// (for choosing features and settings without seeing it); `--repeats=N`
// repeats the nested cross-validation over N splits (the folds reshuffled,
// an organisation's ASes still together) and pools them: one split's
// figures move by a few networks with the split alone.
import { classify, type NetworkKind } from "../server/classification/decide.ts";
import { MODEL } from "../server/classification/model.ts";
import { NetworkClassifier } from "../server/classification/network_classifier.ts";
import { listsData } from "../server/classification/lists.ts";
import { NETWORK_TYPES } from "../shared/network_types.ts";
import {
  combined,
  type Example,
  listsWithout,
  loadTrainingData,
  nestedDecisions,
  outOfFold,
  outOfFoldParts,
  precisionRecall,
  rulesAlone,
  trainingExamples,
} from "./training.ts";

const d = await loadTrainingData();
console.log(
  `features: ${d.features.size} ASes, ${
    d.loaded.built ? "built" : "loaded"
  } in ${d.loaded.ms.toFixed(0)} ms (${d.loaded.path}, ${
    ((await Deno.stat(d.loaded.path)).size / 1e6).toFixed(1)
  } MB)`,
);
const verbose = Deno.args.includes("--errors");
const repeats = Number(
  Deno.args.find((a) => a.startsWith("--repeats="))?.slice(10) ?? 1,
);
if (!Number.isInteger(repeats) || repeats < 1) {
  throw new Error("--repeats=N: N a whole number from 1");
}
const calibrate = (t: number) =>
  1 / (1 + Math.exp(-(MODEL.calibration.a * t + MODEL.calibration.b)));

/** Answers with the confidence they came with, against the truth. */
interface Judged {
  filtered: boolean;
  truth: boolean;
  confidence: number;
}

const reliability: { part: string; judged: Judged[] }[] = [];
const BANDS = [
  [0, 0.3],
  [0.3, 0.5],
  [0.5, 0.7],
  [0.7, 0.8],
  [0.8, 0.9],
  [0.9, 0.95],
  [0.95, 1.01],
];

function line(title: string, judged: Judged[]) {
  const r = precisionRecall(
    judged.map((j) => (j.filtered ? 1 : 0)),
    judged.map((j) => j.truth),
    0.5,
  );
  console.log(
    `${title}: ${judged.length} networks, precision ${
      r.precision.toFixed(3)
    } recall ${r.recall.toFixed(3)} (tp ${r.tp}, fp ${r.fp}, fn ${r.fn})`,
  );
}

// 1. Cross-validation of the training data (the held-out part left out).
const examples = trainingExamples(d);
console.log(
  `\ntraining data: ${examples.length} networks (${
    examples.filter((e) => e.filtered).length
  } filtered; ${examples.filter((e) => e.from === "label").length} labelled, ${
    examples.filter((e) => e.from === "list").length
  } from the lists)`,
);
for (
  const by of Deno.args.includes("--no-cv")
    ? []
    : ["organisation", "as"] as const
) {
  const oof = outOfFold(examples, by);
  // The model deciding alone, at its fitted threshold.
  const model = examples.map((e, i): Judged => {
    const p = calibrate(oof[i]);
    const filtered = p >= MODEL.threshold;
    return { filtered, truth: e.filtered, confidence: filtered ? p : 1 - p };
  });
  line(`model alone, cross-validation split by ${by}`, model);
  // The rules deciding (no list answering), the model's out-of-fold
  // probability as the confidence of their answer.
  const alone = examples.map(rulesAlone);
  const parts = outOfFoldParts(examples, alone, by);
  const rulesOnly = examples.map((e, i): Judged => {
    const p = parts[i];
    const filtered = alone[i].filtered;
    return { filtered, truth: e.filtered, confidence: filtered ? p : 1 - p };
  });
  line(
    `rules alone, training data out of every list, split by ${by}`,
    rulesOnly,
  );
  // As shipped: the rules, then the out-of-fold part of the model for
  // their answer (the spread rule's networks, those with no access
  // evidence) at its threshold.
  const rules = examples.map((e, i): Judged => {
    const p = parts[i];
    const filtered = combined(alone[i], p, {
      spread: MODEL.spread.threshold,
      open: MODEL.open.threshold,
    });
    return { filtered, truth: e.filtered, confidence: filtered ? p : 1 - p };
  });
  line(`rules + model, training data out of every list, split by ${by}`, rules);
  // The same with every setting (parts, calibration, thresholds) fitted
  // without the fold measured: the thresholds above were chosen on these
  // very out-of-fold answers, this line on none of its own.
  const nested = nestedDecisions(examples, by).map((d, i): Judged => ({
    filtered: d.filtered,
    truth: examples[i].filtered,
    confidence: d.confidence ?? 0,
  }));
  line(`rules + model, nested cross-validation split by ${by}`, nested);
  if (repeats > 1) {
    const pooled = [...nested];
    const each = [nested];
    for (let seed = 1; seed < repeats; seed++) {
      const again = nestedDecisions(examples, by, seed).map((
        d,
        i,
      ): Judged => ({
        filtered: d.filtered,
        truth: examples[i].filtered,
        confidence: d.confidence ?? 0,
      }));
      pooled.push(...again);
      each.push(again);
    }
    line(
      `rules + model, nested cross-validation split by ${by}, ${repeats} splits pooled`,
      pooled,
    );
    console.log(
      `  per split (fp/fn): ${
        each.map((judged) => {
          const r = precisionRecall(
            judged.map((j) => (j.filtered ? 1 : 0)),
            judged.map((j) => j.truth),
            0.5,
          );
          return `${r.fp}/${r.fn}`;
        }).join(", ")
      }`,
    );
  }
  if (by === "organisation") {
    reliability.push({
      part: "training data, split by organisation",
      judged: rules,
    });
  }
  if (verbose && by === "organisation") {
    examples.forEach((e: Example, i) => {
      if (rules[i].filtered !== e.filtered) {
        console.log(
          `  AS${e.asn} ${e.org} [${
            e.filtered ? "access" : "not"
          }, ${e.from}] confidence ${rules[i].confidence.toFixed(2)}`,
        );
      }
    });
  }
}

// 2. The parts no fit saw: networks.csv's held-out part and Linnaeus's
// validation split, their AS numbers out of every curated list (the rules
// and the model answer for each), and as shipped (the lists answer where
// they can).
interface Measured {
  asn: number;
  org: string;
  label: NetworkKind;
  /** What the label comes from (for --validation-errors). */
  note: string;
}
const KINDS: readonly NetworkKind[] = NETWORK_TYPES;
const isFiltered = (k: NetworkKind) => k === "consumer_isp" || k === "mobile";
function measure(title: string, rows: Measured[], blind: boolean) {
  const asns = new Set(rows.map((r) => r.asn));
  const lists = blind ? listsWithout(d.lists, asns) : d.lists;
  const matrix = new Map<string, number>();
  const wrong: string[] = [];
  const judged = rows.map((row): Judged => {
    const got = classify(d.features.get(row.asn), {
      asn: row.asn,
      org: row.org,
      lists,
    });
    const key = `${row.label}>${got.type}`;
    matrix.set(key, (matrix.get(key) ?? 0) + 1);
    if (got.filtered !== isFiltered(row.label)) {
      wrong.push(
        `  AS${row.asn} ${row.org} [${row.note}] -> ${got.type} (${got.reason}; ${got.confidence})`,
      );
    }
    return {
      filtered: got.filtered,
      truth: isFiltered(row.label),
      confidence: got.confidence ?? 0,
    };
  });
  line(title, judged);
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
  if (Deno.args.includes("--validation-errors")) console.log(wrong.join("\n"));
  return judged;
}

if (!Deno.args.includes("--cv-only")) {
  const heldout: Measured[] = d.rows.filter((r) => r.split === "heldout")
    .map((r) => ({
      asn: Number(r.asn),
      org: d.table.lookup(r.sample_ip, 4)?.org ?? r.org,
      label: r.label,
      note: r.label_source,
    }));
  const validation: Measured[] = d.linnaeus.flatMap((l) => {
    const org = d.orgOf.get(l.asn);
    return l.split === "val" && org !== undefined
      ? [{ asn: l.asn, org, label: l.kind, note: l.categories.join("+") }]
      : [];
  });
  const absent = d.linnaeus.filter((l) =>
    l.split === "val" && !d.orgOf.has(l.asn)
  );
  console.log(
    `\nLinnaeus validation split: ${validation.length} ASes in the bundled data (${
      validation.filter((r) => isFiltered(r.label)).length
    } access); ${absent.length} not in it (${
      absent.filter((l) => l.filtered).length
    } access), left out`,
  );
  reliability.push({
    part: "Linnaeus validation, out of every list",
    judged: measure(
      "LINNAEUS VALIDATION, its AS numbers out of every curated list",
      validation,
      true,
    ),
  });
  measure(
    "LINNAEUS VALIDATION, as shipped (curated lists first)",
    validation,
    false,
  );
  console.log("");
  reliability.push({
    part: "held-out, out of every list",
    judged: measure(
      "HELD-OUT part, its AS numbers out of every curated list",
      heldout,
      true,
    ),
  });
  measure("HELD-OUT part, as shipped (curated lists first)", heldout, false);
}

// 3. Reliability: of the answers given with a confidence in each band, the
// share that were right.
for (const { part, judged } of reliability) {
  console.log(`\nreliability, ${part}:`);
  console.log("  confidence   answers   mean confidence   right");
  for (const [lo, hi] of BANDS) {
    const band = judged.filter((j) => j.confidence >= lo && j.confidence < hi);
    if (!band.length) continue;
    const mean = band.reduce((s, j) => s + j.confidence, 0) / band.length;
    const right = band.filter((j) => j.filtered === j.truth).length /
      band.length;
    console.log(
      `  ${lo.toFixed(2)}-${Math.min(hi, 1).toFixed(2)}`.padEnd(15) +
        String(band.length).padStart(7) +
        mean.toFixed(3).padStart(18) + right.toFixed(3).padStart(8),
    );
  }
}

// 4. Cost per address as the engine would call it (network decision memoised).
const engineClassifier = new NetworkClassifier({
  features: d.features.columns,
  lists: listsData(d.lists),
  overrides: [],
});
const probes = d.rows.map((r) => {
  const info = d.table.lookup(r.sample_ip, 4)!;
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
