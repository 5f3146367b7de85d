// Visitor sessions without accounts. The first request gets a random session
// id in a cookie signed with the server's secret; a cookie whose signature
// does not check out (forged, tampered, or signed with an old secret) is
// replaced by a new session, never trusted. Nothing is kept in memory or in
// the database, so any replica with the same secret accepts the cookie.
//
// The cookie also carries the ACCESS_PASSWORD "unlocked" mark: a tag derived
// from the password, so changing the password locks every session again.
import type { Context, MiddlewareHandler } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { requestIsHttps } from "./request_origin.ts";
import { base64url, Signer } from "./signing.ts";

declare module "hono" {
  interface ContextVariableMap {
    /** The visitor's session id (set by VisitorSessions.middleware). */
    sessionId: string;
    /** Whether this session has given ACCESS_PASSWORD. */
    sessionUnlocked: boolean;
  }
}

export const SESSION_COOKIE = "session";
/** Browsers cap cookie lifetimes at 400 days; a year is the visitor's jobs. */
const MAX_AGE_SECONDS = 365 * 24 * 60 * 60;
const SESSION_ID = /^[A-Za-z0-9_-]{22}$/;

export interface Session {
  id: string;
  unlocked: boolean;
}

export interface SessionOptions {
  /** Proxy hops whose X-Forwarded-Proto is trusted (Config.trustProxy). */
  trustProxy: number;
  accessPassword?: string;
}

export function newSessionId(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(16)));
}

export class VisitorSessions {
  private constructor(
    private readonly signer: Signer,
    private readonly options: SessionOptions,
    /** Marks a session as unlocked with the current password ("-": none). */
    private readonly unlockTag: string | undefined,
  ) {}

  static create(secret: string, options: SessionOptions): VisitorSessions {
    const signer = new Signer(secret);
    const unlockTag = options.accessPassword === undefined
      ? undefined
      : signer.sign(`unlock\0${options.accessPassword}`).slice(0, 22);
    return new VisitorSessions(signer, options, unlockTag);
  }

  /** The session a cookie value stands for, or null if it is not ours. */
  parse(value: string | undefined): Session | null {
    const parts = (value ?? "").split(".");
    if (parts.length !== 3) return null;
    const [id, mark, signature] = parts;
    if (!SESSION_ID.test(id)) return null;
    if (!this.signer.verify(`${id}.${mark}`, signature)) return null;
    return {
      id,
      unlocked: this.unlockTag !== undefined && mark === this.unlockTag,
    };
  }

  /** The signed cookie value for a session. */
  serialize(session: Session): string {
    const mark = session.unlocked && this.unlockTag ? this.unlockTag : "-";
    const payload = `${session.id}.${mark}`;
    return `${payload}.${this.signer.sign(payload)}`;
  }

  /** Sets the session cookie on the answer and in the context. */
  issue(c: Context, session: Session): void {
    setCookie(c, SESSION_COOKIE, this.serialize(session), {
      httpOnly: true,
      sameSite: "Lax",
      secure: requestIsHttps(c, this.options.trustProxy),
      path: "/",
      maxAge: MAX_AGE_SECONDS,
    });
    c.set("sessionId", session.id);
    c.set("sessionUnlocked", session.unlocked);
  }

  /** Gives every request a session: the cookie's, or a new one. */
  middleware(): MiddlewareHandler {
    return async (c, next) => {
      const session = this.parse(getCookie(c, SESSION_COOKIE));
      if (session) {
        c.set("sessionId", session.id);
        c.set("sessionUnlocked", session.unlocked);
      } else {
        this.issue(c, { id: newSessionId(), unlocked: false });
      }
      await next();
    };
  }
}
