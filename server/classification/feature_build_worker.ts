// Web Worker entry: builds the AS features and posts their columns back
// (feature_build.ts says why on a thread of its own).
/// <reference lib="deno.worker" />
import { GeoProvider } from "../enrichment/geo_provider.ts";
import { buildAsFeatures } from "./as_features.ts";
import type { FeatureBuildInput } from "./feature_build.ts";
import { answerOnThread } from "../one_shot_thread.ts";

answerOnThread(({ table, geo }: FeatureBuildInput) =>
  buildAsFeatures(table, new GeoProvider(geo))
);
