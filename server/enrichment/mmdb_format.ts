// A strict decoder of the MaxMind DB format's values (the data section's
// records and the metadata map; mmdb_tree.ts reads the search tree), with the
// checks the reference readers (libmaxminddb, the Go and Python readers) make:
// every offset, pointer and size within its section, doubles of 8 bytes and
// floats of 4, valid UTF-8, string map keys, bounded nesting. mmdb-lib decodes
// without them, so a corrupt file crashed the server at start or gave nonsense
// (latitudes like 1.8e-52) at lookup.
import { shortAscii } from "../ascii_text.ts";

/** What is wrong with a file, in words a user can act on. */
export class MmdbError extends Error {}

/** libmaxminddb's and the Go reader's limit on nesting. */
export const MAX_DEPTH = 512;
const utf8 = new TextDecoder("utf-8", { fatal: true });
/** Bytes of one float, read big-endian without a view per value. */
const floatBytes = new DataView(new ArrayBuffer(8));
/** Strings kept by the offset a pointer names (see Decoder.#decode). */
const POINTED_STRINGS = 16_384;

export type MmdbValue =
  | string
  | number
  | bigint
  | boolean
  | Uint8Array
  | MmdbValue[]
  | { [key: string]: MmdbValue };

const TYPE_NAMES = [
  "extended",
  "pointer",
  "string",
  "double",
  "bytes",
  "uint16",
  "uint32",
  "map",
  "int32",
  "uint64",
  "uint128",
  "array",
  "data cache container",
  "end marker",
  "boolean",
  "float",
];

/** Decodes values of one section (the data section, or the metadata). */
export class Decoder {
  constructor(
    readonly bytes: Uint8Array,
    /** Where the section starts; pointers are relative to it. */
    readonly start: number,
    /** Where it ends (exclusive). */
    readonly end: number,
  ) {}

  #byte(at: number): number {
    if (at >= this.end) {
      throw new MmdbError(`a value runs past the end of its section`);
    }
    return this.bytes[at];
  }

  #uint(at: number, size: number): number {
    if (at + size > this.end) {
      throw new MmdbError(`a value runs past the end of its section`);
    }
    let n = 0;
    for (let i = 0; i < size; i++) n = n * 256 + this.bytes[at + i];
    return n;
  }

  /** The value at `offset` (relative to the section start). */
  decode(offset: number): MmdbValue {
    return this.#decode(this.start + offset, 0);
  }

  // Where the value last decoded ends: kept here rather than returned with
  // each value, as an object per value was much of a lookup's garbage.
  #next = 0;
  /**
   * Strings reached through a pointer, by their offset: map keys and
   * repeated names are pointers to one copy, decoded (and checked) once.
   */
  #pointedStrings = new Map<number, string>();

  /** The value at `at`; sets #next to the byte after it. */
  #decode(at: number, depth: number): MmdbValue {
    if (depth > MAX_DEPTH) {
      throw new MmdbError(
        `data nested deeper than ${MAX_DEPTH} levels (or a pointer loop)`,
      );
    }
    const control = this.#byte(at++);
    let type = control >> 5;
    if (type === 1) {
      const ss = (control >> 3) & 3;
      const vvv = control & 7;
      let target: number;
      if (ss === 0) target = vvv * 256 + this.#uint(at, 1);
      else if (ss === 1) target = vvv * 65536 + this.#uint(at, 2) + 2048;
      else if (ss === 2) target = vvv * 16777216 + this.#uint(at, 3) + 526336;
      else target = this.#uint(at, 4);
      const next = at + ss + 1;
      const pointed = this.start + target;
      if (pointed >= this.end) {
        throw new MmdbError(
          `a pointer (${target}) points outside the data section`,
        );
      }
      if (this.bytes[pointed] >> 5 === 1) {
        throw new MmdbError("a pointer points to another pointer");
      }
      let value: MmdbValue | undefined = depth < MAX_DEPTH
        ? this.#pointedStrings.get(pointed)
        : undefined;
      if (value === undefined) {
        value = this.#decode(pointed, depth + 1);
        if (typeof value === "string") {
          const strings = this.#pointedStrings;
          if (strings.size >= POINTED_STRINGS) strings.clear();
          strings.set(pointed, value);
        }
      }
      this.#next = next;
      return value;
    }
    if (type === 0) {
      const extended = this.#byte(at++);
      type = 7 + extended;
      if (type < 8 || type > 15) {
        throw new MmdbError(`unknown data type (extended type ${extended})`);
      }
    }
    let size = control & 0x1f;
    if (size === 29) size = 29 + this.#uint(at++, 1);
    else if (size === 30) {
      size = 285 + this.#uint(at, 2);
      at += 2;
    } else if (size === 31) {
      size = 65821 + this.#uint(at, 3);
      at += 3;
    }
    return this.#payload(type, size, at, depth);
  }

  #sizeError(type: number, size: number, bytes: number, exact: boolean) {
    return new MmdbError(
      `a ${TYPE_NAMES[type]} of ${size} bytes (${
        exact ? "must be" : "at most"
      } ${bytes})`,
    );
  }

  /** Throws unless `size` bytes from `at` are within the section. */
  #within(type: number, size: number, at: number): void {
    if (at + size > this.end) {
      throw new MmdbError(
        `a ${
          TYPE_NAMES[type]
        } of ${size} bytes runs past the end of its section`,
      );
    }
  }

  #payload(type: number, size: number, at: number, depth: number): MmdbValue {
    switch (type) {
      case 2: {
        this.#within(type, size, at);
        this.#next = at + size;
        return this.#string(at, size);
      }
      case 3:
        if (size !== 8) throw this.#sizeError(type, size, 8, true);
        this.#within(type, size, at);
        this.#next = at + 8;
        return this.#float(at, 8);
      case 15:
        if (size !== 4) throw this.#sizeError(type, size, 4, true);
        this.#within(type, size, at);
        this.#next = at + 4;
        return this.#float(at, 4);
      case 4:
        this.#within(type, size, at);
        this.#next = at + size;
        return this.bytes.slice(at, at + size);
      case 5:
      case 6:
      case 9:
      case 10: {
        const most = type === 5 ? 2 : type === 6 ? 4 : type === 9 ? 8 : 16;
        if (size > most) throw this.#sizeError(type, size, most, false);
        this.#within(type, size, at);
        this.#next = at + size;
        if (size <= 6) {
          // Exact as a number: the common case without BigInt.
          let small = 0;
          for (let i = 0; i < size; i++) {
            small = small * 256 + this.bytes[at + i];
          }
          return small;
        }
        let n = 0n;
        for (let i = 0; i < size; i++) {
          n = (n << 8n) | BigInt(this.bytes[at + i]);
        }
        return n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n;
      }
      case 8: {
        if (size > 4) throw this.#sizeError(type, size, 4, false);
        this.#within(type, size, at);
        let n = 0;
        for (let i = 0; i < size; i++) n = n * 256 + this.bytes[at + i];
        this.#next = at + size;
        return size === 4 ? n | 0 : n;
      }
      case 14:
        if (size > 1) {
          throw new MmdbError(`a boolean of value ${size} (must be 0 or 1)`);
        }
        this.#next = at;
        return size === 1;
      case 7: {
        this.#room(size, at, 2);
        const map: { [key: string]: MmdbValue } = {};
        for (let i = 0; i < size; i++) {
          const key = this.#decode(at, depth + 1);
          if (typeof key !== "string") {
            throw new MmdbError("a map key is not a string");
          }
          const value = this.#decode(this.#next, depth + 1);
          map[key] = value;
          at = this.#next;
        }
        this.#next = at;
        return map;
      }
      case 11: {
        this.#room(size, at, 1);
        const array: MmdbValue[] = [];
        for (let i = 0; i < size; i++) {
          array.push(this.#decode(at, depth + 1));
          at = this.#next;
        }
        this.#next = at;
        return array;
      }
      default:
        throw new MmdbError(`a value of type "${TYPE_NAMES[type]}" in data`);
    }
  }

  /** A big-endian double (8 bytes) or float (4) at `at`. */
  #float(at: number, size: 4 | 8): number {
    for (let k = 0; k < size; k++) floatBytes.setUint8(k, this.bytes[at + k]);
    return size === 8 ? floatBytes.getFloat64(0) : floatBytes.getFloat32(0);
  }

  /**
   * A string's bytes as text. Most strings in the databases (map keys, codes,
   * place names) are short and ASCII (shortAscii): TextDecoder's call per
   * string was most of a job's lookups.
   */
  #string(at: number, size: number): string {
    if (size === 0) return ""; // the empty fields of many records
    const bytes = this.bytes;
    const ascii = shortAscii(bytes, at, at + size);
    if (ascii !== null) return ascii;
    try {
      return utf8.decode(bytes.subarray(at, at + size));
    } catch {
      throw new MmdbError("a string is not valid UTF-8");
    }
  }

  /** A map or array claiming more entries than bytes left cannot be read. */
  #room(count: number, at: number, bytesPerEntry: number) {
    if (at + count * bytesPerEntry > this.end) {
      throw new MmdbError(
        `a map or array claims ${count} entries, more than its section holds`,
      );
    }
  }
}
