// Web Worker entry: loads the classifier and decides every ASN table
// network, and posts them back (classifier_load.ts says why on a thread of
// its own).
/// <reference lib="deno.worker" />
import { GeoProvider } from "../enrichment/geo_provider.ts";
import { buildAsFeatures } from "./as_features.ts";
import type {
  ClassifierLoadInput,
  LoadedClassifier,
} from "./classifier_load.ts";
import { loadNetworkClassifierData } from "./network_classifier.ts";
import { classifyTable } from "./network_table.ts";
import { answerOnThread } from "../one_shot_thread.ts";

answerOnThread(
  async ({ table, geo, ...sources }: ClassifierLoadInput): Promise<
    LoadedClassifier
  > => {
    const classifier = await loadNetworkClassifierData({
      ...sources,
      buildFeatures: () => buildAsFeatures(table, new GeoProvider(geo)),
    });
    return { classifier, networks: classifyTable(table, classifier) };
  },
);
