// One piece of work on a worker of its own, which ends with it: work that
// would hold the HTTP thread for a second or more, and whose short-lived
// objects then die with the thread (server/v8_flags.ts). Typed arrays in
// shared memory come back without a copy.

/** What the worker posts back: its value, or its error's message. */
export type ThreadAnswer<O> = { value: O } | { error: string };

/**
 * Posts `input` to a new worker running `url` (whose module calls
 * answerOnThread) and resolves to its answer; an error's message is
 * prefixed with `what` ("reading the ASN tables"), or kept as it is when
 * null (a message that names what failed already).
 */
export function runOnThread<I, O>(
  url: URL,
  name: string,
  input: I,
  what: string | null,
): Promise<O> {
  const worker = new Worker(url.href, { type: "module", name });
  const { promise, resolve, reject } = Promise.withResolvers<O>();
  const failed = (message: string) =>
    reject(new Error(what === null ? message : `${what} failed: ${message}`));
  worker.onmessage = (event: MessageEvent<ThreadAnswer<O>>) => {
    const answer = event.data;
    if ("value" in answer) resolve(answer.value);
    else failed(answer.error);
  };
  worker.onerror = (event) => {
    event.preventDefault();
    failed(event.message);
  };
  worker.postMessage(input);
  return promise.finally(() => worker.terminate());
}

/** In a worker's module: answers the one message runOnThread sends. */
export function answerOnThread<I, O>(
  work: (input: I) => O | Promise<O>,
): void {
  const scope = globalThis as unknown as {
    onmessage: ((event: MessageEvent<I>) => void) | null;
    postMessage(message: ThreadAnswer<O>): void;
  };
  scope.onmessage = async (event) => {
    try {
      scope.postMessage({ value: await work(event.data) });
    } catch (error) {
      scope.postMessage({ error: (error as Error).message });
    }
  };
}
