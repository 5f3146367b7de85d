// HMAC-SHA256 signatures with Web Crypto: the key is imported once, and a
// signature is checked with crypto.subtle.verify (constant time).

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
  private constructor(private readonly key: CryptoKey) {}

  static async create(secret: string): Promise<Signer> {
    const key = await crypto.subtle.importKey(
      "raw",
      encoder.encode(secret),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign", "verify"],
    );
    return new Signer(key);
  }

  /** The base64url signature of `value`. */
  async sign(value: string): Promise<string> {
    const mac = await crypto.subtle.sign(
      "HMAC",
      this.key,
      encoder.encode(value),
    );
    return base64url(new Uint8Array(mac));
  }

  /** Whether `signature` is this key's signature of `value`. */
  async verify(value: string, signature: string): Promise<boolean> {
    const mac = fromBase64url(signature);
    if (mac === null || mac.length !== 32) return false;
    return await crypto.subtle.verify(
      "HMAC",
      this.key,
      mac,
      encoder.encode(value),
    );
  }
}
