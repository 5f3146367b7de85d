// deno task fit:classifier — fits the network classifier's model
// (server/classification/model.ts) on the curated lists, the labelled
// development networks and Linnaeus's train split, and writes its
// parameters to server/classification/model_params.json and that split's
// labels to server/data/linnaeus_asns.txt. The held-out part of
// eval/networks.csv is left out of training entirely (eval:classifier
// measures it). Refit after a database or list update.
import { linnaeusTable, TABLE_PATH } from "./linnaeus.ts";
import {
  fitModel,
  labelledAs,
  listedAs,
  loadTrainingData,
  trainingExamples,
} from "./training.ts";

const out =
  new URL("../server/classification/model_params.json", import.meta.url)
    .pathname;
const d = await loadTrainingData();
const examples = trainingExamples(d);
await Deno.writeTextFile(TABLE_PATH, linnaeusTable(d.linnaeus));
const params = fitModel(examples, listedAs(d.lists), labelledAs(d));
await Deno.writeTextFile(out, JSON.stringify(params, null, 2) + "\n");
console.log(
  `fitted on ${examples.length} networks (${params.fitted.filtered} filtered), threshold ${params.threshold}, spread ${params.spread.threshold}, open ${params.open.threshold}, lists ${params.listConfidence} (doubted ${params.listDoubtedConfidence}), labels ${params.labelConfidence} (doubted ${params.labelDoubtedConfidence}); written to ${out}`,
);
// How far each feature can move the answer (sum of its stumps' swings).
params.features.forEach((f, j) => {
  let swing = 0;
  params.feature.forEach((g, i) => {
    if (g === j) swing += Math.abs(params.above[i] - params.below[i]);
  });
  console.log(`  ${f.padEnd(20)} ${swing.toFixed(2).padStart(8)}`);
});
