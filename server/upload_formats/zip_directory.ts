// Random access to the entries of a zip held in memory (an .xlsx upload,
// bounded by the upload limit): the central directory says where each entry
// is, and an entry streams out through the platform's deflate decoder, so
// only the bytes that are read get inflated.
import { inflate } from "./bounded_chunks.ts";
import { UploadFormatError } from "./limits.ts";

interface Entry {
  name: string;
  method: number;
  compressedSize: number;
  localOffset: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

const damaged = (why: string) =>
  new UploadFormatError(`The file is not a valid .xlsx workbook (${why}).`);

export class ZipDirectory {
  readonly #bytes: Uint8Array;
  readonly #view: DataView;
  readonly entries = new Map<string, Entry>();

  constructor(bytes: Uint8Array) {
    this.#bytes = bytes;
    this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const view = this.#view;
    // The end record is in the last 64 KiB + 22 bytes (its comment's limit).
    let end = -1;
    for (
      let at = bytes.byteLength - 22;
      at >= Math.max(0, bytes.byteLength - 65_557);
      at--
    ) {
      if (view.getUint32(at, true) === EOCD) {
        end = at;
        break;
      }
    }
    if (end < 0) throw damaged("no zip directory");
    const count = view.getUint16(end + 10, true);
    let at = view.getUint32(end + 16, true);
    if (count === 0xffff || at === 0xffffffff) {
      throw damaged("zip64 archives are not read; save it as a plain .xlsx");
    }
    for (let i = 0; i < count; i++) {
      if (at + 46 > bytes.byteLength || view.getUint32(at, true) !== CENTRAL) {
        throw damaged("damaged zip directory");
      }
      const nameLength = view.getUint16(at + 28, true);
      const name = new TextDecoder().decode(
        bytes.subarray(at + 46, at + 46 + nameLength),
      );
      this.entries.set(name, {
        name,
        method: view.getUint16(at + 10, true),
        compressedSize: view.getUint32(at + 20, true),
        localOffset: view.getUint32(at + 42, true),
      });
      at += 46 + nameLength + view.getUint16(at + 30, true) +
        view.getUint16(at + 32, true);
    }
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** An entry's uncompressed bytes, as a stream; null when missing. */
  open(name: string): ReadableStream<Uint8Array> | null {
    const entry = this.entries.get(name);
    if (!entry) return null;
    const view = this.#view;
    const at = entry.localOffset;
    if (
      at + 30 > this.#bytes.byteLength || view.getUint32(at, true) !== LOCAL
    ) {
      throw damaged(`damaged entry ${name}`);
    }
    const start = at + 30 + view.getUint16(at + 26, true) +
      view.getUint16(at + 28, true);
    const data = this.#bytes.subarray(start, start + entry.compressedSize);
    const raw = new Blob([data as BlobPart]).stream();
    if (entry.method === 0) return raw;
    if (entry.method !== 8) {
      throw damaged(`entry ${name} uses compression method ${entry.method}`);
    }
    return inflate(raw, "deflate-raw");
  }
}
