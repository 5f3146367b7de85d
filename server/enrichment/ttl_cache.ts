// A small cache whose entries expire: bounded in entries, the oldest
// written first out when full. Used for reverse-DNS answers, so repeated
// single lookups of an address do not ask DNS again within the answer's TTL.

export class TtlCache<V> {
  #entries = new Map<string, { value: V; expires: number }>();

  constructor(
    readonly maxEntries: number,
    readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.#entries.size;
  }

  /** The value, or undefined when absent or expired. */
  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= this.now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Keeps `value` for `ttlMs`; a TTL of 0 or less keeps nothing. */
  set(key: string, value: V, ttlMs: number): void {
    if (!(ttlMs > 0) || this.maxEntries <= 0) return;
    this.#entries.delete(key);
    while (this.#entries.size >= this.maxEntries) {
      this.#entries.delete(this.#entries.keys().next().value!);
    }
    this.#entries.set(key, { value, expires: this.now() + ttlMs });
  }

  clear(): void {
    this.#entries.clear();
  }
}
