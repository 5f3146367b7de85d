// WebSocket /ws: clients subscribe to jobs and receive jobUpdate messages
// while a job changes, a few a second at most, and always its final state.
// The session is the one the upgrade request carried: a job it may not see
// is answered like one that does not exist.
import { Hono } from "hono";
import { upgradeWebSocket } from "hono/deno";
import type { WSContext } from "hono/ws";
import type { ClientMessage, ServerMessage } from "../../shared/wire.ts";
import { canSee } from "../access/ownership.ts";
import type { AppDeps } from "../deps.ts";
import { type JobRecord, toWireJob } from "../storage/job_rows.ts";

const FLUSH_MS = 250;
const MAX_MESSAGE_BYTES = 4096;
const MAX_SUBSCRIPTIONS = 100;

export class JobUpdateHub {
  #subscribers = new Map<number, Set<WSContext>>();
  #changed = new Map<number, JobRecord>();
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly deps: Pick<AppDeps, "store" | "events" | "access">,
  ) {
    deps.events.on((job) => {
      if (!this.#subscribers.has(job.id)) return;
      this.#changed.set(job.id, job);
      this.#timer ??= setTimeout(() => this.#flush(), FLUSH_MS);
    });
  }

  async subscribe(
    ws: WSContext,
    jobId: number,
    mine: Set<number>,
    sessionId: string | undefined,
  ): Promise<void> {
    const job = await this.deps.store.getJob(jobId);
    const { visibility } = this.deps.access;
    if (!job || !canSee(job.owner, sessionId, visibility)) {
      send(ws, { type: "error", message: `Job ${jobId} not found` });
      return;
    }
    if (!mine.has(jobId) && mine.size >= MAX_SUBSCRIPTIONS) {
      send(ws, {
        type: "error",
        message: `At most ${MAX_SUBSCRIPTIONS} subscriptions per connection`,
      });
      return;
    }
    mine.add(jobId);
    let set = this.#subscribers.get(jobId);
    if (!set) this.#subscribers.set(jobId, set = new Set());
    set.add(ws);
    send(ws, { type: "subscribed", jobId });
    send(ws, update(job));
  }

  unsubscribe(ws: WSContext, jobId: number, mine: Set<number>): void {
    mine.delete(jobId);
    const set = this.#subscribers.get(jobId);
    set?.delete(ws);
    if (set?.size === 0) this.#subscribers.delete(jobId);
  }

  #flush(): void {
    this.#timer = undefined;
    const changed = [...this.#changed.values()];
    this.#changed.clear();
    for (const job of changed) {
      const message = update(job);
      for (const ws of this.#subscribers.get(job.id) ?? []) send(ws, message);
    }
  }
}

function update(job: JobRecord): ServerMessage {
  return {
    type: "jobUpdate",
    jobId: job.id,
    data: { job: toWireJob(job), status: job.status, error: job.error },
  };
}

function send(ws: WSContext, message: ServerMessage): void {
  try {
    ws.send(JSON.stringify(message));
  } catch { /* closed meanwhile */ }
}

function parseMessage(data: unknown): ClientMessage | string {
  if (typeof data !== "string") return "Messages must be JSON text";
  if (data.length > MAX_MESSAGE_BYTES) return "Message too large";
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return "Message is not valid JSON";
  }
  const { type, jobId } = (value ?? {}) as Record<string, unknown>;
  if (type !== "subscribe" && type !== "unsubscribe") {
    return 'Unknown message type: use "subscribe" or "unsubscribe"';
  }
  const id = Number(jobId);
  if (!Number.isSafeInteger(id) || id < 1) {
    return "jobId must be a positive whole number";
  }
  return { type, jobId: id };
}

export function wsRoutes(hub: JobUpdateHub) {
  const app = new Hono();
  app.get(
    "/",
    upgradeWebSocket((c) => {
      const sessionId: string | undefined = c.get("sessionId");
      const mine = new Set<number>();
      return {
        onMessage(event, ws) {
          const message = parseMessage(event.data);
          if (typeof message === "string") {
            send(ws, { type: "error", message });
          } else if (message.type === "subscribe") {
            hub.subscribe(ws, message.jobId, mine, sessionId).catch((error) =>
              send(ws, { type: "error", message: String(error.message) })
            );
          } else {
            hub.unsubscribe(ws, message.jobId, mine);
            send(ws, { type: "unsubscribed", jobId: message.jobId });
          }
        },
        onClose(_event, ws) {
          for (const jobId of [...mine]) hub.unsubscribe(ws, jobId, mine);
        },
      };
    }),
  );
  return app;
}
