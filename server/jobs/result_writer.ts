// The job pipeline's checkpoint writers and codec, in one import for the
// tests and the profiler.
export type { BatchWriter } from "./batch_writer.ts";
export {
  type Checkpoint,
  CheckpointBuilder,
  CheckpointReader,
  type FlatValue,
  type JobStart,
} from "./checkpoint_codec.ts";
export { DirectWriter } from "./direct_writer.ts";
export { startWriterThread, ThreadedWriter } from "./threaded_writer.ts";
