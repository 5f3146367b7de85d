// The V8 flags and the C library's memory settings the server runs with:
// `deno task start` and `dev` (deno.json, checked against these by
// v8_flags_test.ts), the compiled binary (scripts/compile.ts; the Dockerfile
// sets the environment) and the benchmark's server.
export const V8_FLAGS = [
  // Young generations of 2 MB per thread (HTTP, job workers, writers): V8's
  // default grows each to tens of MB, and each MB is resident in every
  // thread.
  "--max-semi-space-size=2",
  // A 1 GB old generation per thread, with which V8 lets a heap grow less
  // far past what a collection kept.
  "--max-old-space-size=1024",
  // A worker's memory goes back to the system when the worker ends. By
  // default V8 hands a torn-down isolate's pages to the pools of the others,
  // released by a timer that an idle Deno server never runs, so an ended
  // worker's memory stayed with the server for its life.
  "--no-memory-pool-share-memory-on-teardown",
];

/** The flags as one `deno run` / `deno compile` argument. */
export const V8_FLAGS_ARG = `--v8-flags=${V8_FLAGS.join(",")}`;

/**
 * glibc's malloc gives freed memory back once 16 MB is free at the top of a
 * heap. By default the threshold follows the largest block freed (up to
 * 64 MB), so a job's freed buffers stayed with the process. A much lower
 * threshold gives memory back and takes it again, costing CPU. Other C
 * libraries ignore it.
 */
export const MALLOC_ENV = { MALLOC_TRIM_THRESHOLD_: "16777216" } as const;

/** The environment as a shell prefix (deno.json tasks). */
export const MALLOC_ENV_PREFIX = Object.entries(MALLOC_ENV)
  .map(([name, value]) => `${name}=${value}`).join(" ");
