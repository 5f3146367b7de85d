// HMAC-SHA256 signatures, computed in this thread (node:crypto) and compared
// in constant time. Every request's session cookie is checked: Web Crypto's
// sign and verify run on a thread pool, and while a job kept both cores busy
// that hop alone put a few ms on a request.
import { createHmac, timingSafeEqual } from "node:crypto";

const encoder = new TextEncoder();

export function base64url(bytes: Uint8Array): string {
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  try {
    const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
  } catch {
    return null;
  }
}

export class Signer {
  readonly #secret: Uint8Array;

  constructor(secret: string) {
    this.#secret = encoder.encode(secret);
  }

  #mac(value: string): Uint8Array {
    return createHmac("sha256", this.#secret).update(value).digest();
  }

  /** The base64url signature of `value`. */
  sign(value: string): string {
    return base64url(this.#mac(value));
  }

  /** Whether `signature` is this key's signature of `value`. */
  verify(value: string, signature: string): boolean {
    const mac = fromBase64url(signature);
    return mac !== null && mac.length === 32 &&
      timingSafeEqual(mac, this.#mac(value));
  }
}
