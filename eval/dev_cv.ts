// The fast loop for choosing features, thresholds and rules: the nested
// cross-validation split by organisation of the training data alone (no
// held-out part, no validation split), pooled over `--repeats=N` splits,
// its wrong answers counted by what decided them (`--errors` lists them).
// Run with nice; the AS features come from the DATA_DIR cache.
import {
  loadTrainingData,
  nestedDecisions,
  precisionRecall,
  trainingExamples,
} from "./training.ts";

const repeats = Number(
  Deno.args.find((a) => a.startsWith("--repeats="))?.slice(10) ?? 1,
);
const d = await loadTrainingData();
const examples = trainingExamples(d);
const byWhat = new Map<string, [number, number]>();
let tp = 0, fp = 0, fn = 0;
for (let seed = 0; seed < repeats; seed++) {
  nestedDecisions(examples, "organisation", seed).forEach((got, i) => {
    const e = examples[i];
    const r = precisionRecall([got.filtered ? 1 : 0], [e.filtered], 0.5);
    tp += r.tp, fp += r.fp, fn += r.fn;
    if (got.filtered === e.filtered) return;
    const what = got.reason.replace(/[:(;].*/, "").trim();
    const c = byWhat.get(what) ?? [0, 0];
    c[got.filtered ? 0 : 1]++;
    byWhat.set(what, c);
    if (Deno.args.includes("--errors") && seed === 0) {
      console.log(
        `  AS${e.asn} ${e.org} [${
          e.filtered ? "access" : "not"
        }, ${e.from}] -> ${got.reason} (${got.confidence})`,
      );
    }
  });
}
console.log(
  `nested cv by organisation, ${repeats} split(s), ${examples.length} networks: precision ${
    (tp / (tp + fp)).toFixed(3)
  } recall ${(tp / (tp + fn)).toFixed(3)} (tp ${tp}, fp ${fp}, fn ${fn})`,
);
for (const [what, [p, n]] of [...byWhat].sort((a, b) => b[1][0] - a[1][0])) {
  console.log(`  ${what.padEnd(40)} fp ${p} fn ${n}`);
}
