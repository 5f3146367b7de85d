// Numbers the distinct addresses of a job: 0, 1, 2, ... in order of first
// sight. IPv4 addresses are kept as 32-bit numbers in an open-addressing
// table of typed arrays (8 bytes a slot, no object per address: a million
// rows have some 500,000 distinct addresses); others by their text.

const EMPTY = 0;

export class AddressSlots {
  #keys = new Uint32Array(1024);
  /** Slot number + 1; 0: empty. */
  #values = new Int32Array(1024);
  #v4Count = 0;
  #others = new Map<string, number>();
  #size = 0;

  /** Distinct addresses numbered so far. */
  get size(): number {
    return this.#size;
  }

  /** The number of an IPv4 address (as a 32-bit number); -1: not seen. */
  getV4(address: number): number {
    const mask = this.#keys.length - 1;
    for (let i = hash(address) & mask;; i = (i + 1) & mask) {
      const value = this.#values[i];
      if (value === EMPTY) return -1;
      if (this.#keys[i] === address) return value - 1;
    }
  }

  /** Numbers an IPv4 address not seen before; returns its number. */
  addV4(address: number): number {
    if ((this.#v4Count + 1) * 2 > this.#keys.length) this.#grow();
    const slot = this.#size++;
    this.#put(address, slot + 1);
    this.#v4Count++;
    return slot;
  }

  /** The number of any other address text; -1: not seen. */
  get(text: string): number {
    return this.#others.get(text) ?? -1;
  }

  /** Numbers an address text not seen before; returns its number. */
  add(text: string): number {
    const slot = this.#size++;
    this.#others.set(text, slot);
    return slot;
  }

  /** Forgets every address; the table keeps its size for the next ones. */
  clear(): void {
    this.#values.fill(EMPTY);
    this.#v4Count = 0;
    this.#others.clear();
    this.#size = 0;
  }

  #put(address: number, value: number): void {
    const mask = this.#keys.length - 1;
    let i = hash(address) & mask;
    while (this.#values[i] !== EMPTY) i = (i + 1) & mask;
    this.#keys[i] = address;
    this.#values[i] = value;
  }

  #grow(): void {
    const keys = this.#keys;
    const values = this.#values;
    this.#keys = new Uint32Array(keys.length * 2);
    this.#values = new Int32Array(values.length * 2);
    for (let i = 0; i < keys.length; i++) {
      if (values[i] !== EMPTY) this.#put(keys[i], values[i]);
    }
  }
}

function hash(n: number): number {
  const h = Math.imul(n ^ (n >>> 16), 0x45d9f3b);
  return (h ^ (h >>> 16)) >>> 0;
}
