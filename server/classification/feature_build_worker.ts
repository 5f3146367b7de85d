// Web Worker entry: builds the AS features and posts their columns back, or
// the error's message (feature_build.ts says why on a thread of its own).
/// <reference lib="deno.worker" />
import { GeoProvider } from "../enrichment/geo_provider.ts";
import { buildAsFeatures } from "./as_features.ts";
import type { FeatureBuildInput, FeatureBuildOutput } from "./feature_build.ts";

const post = (message: FeatureBuildOutput) => self.postMessage(message);

self.onmessage = (event: MessageEvent<FeatureBuildInput>) => {
  const { table, geo } = event.data;
  try {
    post({ columns: buildAsFeatures(table, new GeoProvider(geo)) });
  } catch (error) {
    post({ error: (error as Error).message });
  }
};
