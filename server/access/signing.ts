// HMAC-SHA256 signatures, computed in this thread (node:crypto) and compared
// in constant time. Every request's session cookie is checked: Web Crypto's
// sign and verify run on a thread pool, and while a job kept both cores busy
// that hop alone put a few ms on a request.
import { Buffer } from "node:buffer";
import { createHmac, timingSafeEqual } from "node:crypto";

const encoder = new TextEncoder();

export const base64url = (bytes: Uint8Array) =>
  Buffer.from(bytes).toString("base64url");

/** A SHA-256 MAC (32 bytes) in base64url: 43 characters of its alphabet. */
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;

export class Signer {
  readonly #secret: Uint8Array;

  constructor(secret: string) {
    this.#secret = encoder.encode(secret);
  }

  #mac(value: string): Buffer {
    return createHmac("sha256", this.#secret).update(value).digest();
  }

  /** The base64url signature of `value`. */
  sign(value: string): string {
    return this.#mac(value).toString("base64url");
  }

  /** Whether `signature` is this key's signature of `value`. */
  verify(value: string, signature: string): boolean {
    return SIGNATURE.test(signature) &&
      timingSafeEqual(Buffer.from(signature, "base64url"), this.#mac(value));
  }
}
