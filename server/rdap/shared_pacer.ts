// One rate limit for the whole process although jobs run in workers: the
// main thread owns the RateLimiter and hands tokens out over a
// MessagePort; a worker's PortPacer asks for one per request and passes a
// registry's 429 back, so the pause holds every job and single lookup.
import type { Pacer, RateLimiter } from "./rate_limiter.ts";

type PacerMessage =
  | { type: "take"; id: number }
  | { type: "pause"; until: number };

/** Main thread: answers a worker's port from the process's limiter. */
export function servePacer(port: MessagePort, limiter: RateLimiter): void {
  port.onmessage = (event: MessageEvent<PacerMessage>) => {
    const message = event.data;
    if (message.type === "pause") {
      limiter.pauseUntil(message.until);
    } else if (message.type === "take") {
      limiter.take().then(() => port.postMessage({ granted: message.id }));
    }
  };
}

/** Worker side: a Pacer whose tokens come from the main thread. */
export class PortPacer implements Pacer {
  #next = 0;
  #waiting = new Map<number, () => void>();

  constructor(readonly port: MessagePort) {
    port.onmessage = (event: MessageEvent<{ granted: number }>) => {
      const resolve = this.#waiting.get(event.data.granted);
      this.#waiting.delete(event.data.granted);
      resolve?.();
    };
  }

  take(): Promise<void> {
    const id = this.#next++;
    return new Promise((resolve) => {
      this.#waiting.set(id, resolve);
      this.port.postMessage({ type: "take", id } satisfies PacerMessage);
    });
  }

  pauseUntil(until: number): void {
    this.port.postMessage({ type: "pause", until } satisfies PacerMessage);
  }
}
