// Reads a .tgz (an npm package) as it streams, handing each regular file's
// name and contents to the caller: ustar headers, with pax headers for long
// names. Only what npm writes is read; anything else is an error naming it.

export class TarError extends Error {}

const BLOCK = 512;
const decoder = new TextDecoder();

function field(header: Uint8Array, start: number, length: number): string {
  const bytes = header.subarray(start, start + length);
  const end = bytes.indexOf(0);
  return decoder.decode(end < 0 ? bytes : bytes.subarray(0, end));
}

function octal(header: Uint8Array, start: number, length: number): number {
  const text = field(header, start, length).trim();
  if (!/^[0-7]*$/.test(text)) {
    throw new TarError(`a tar header's number "${text}" is not octal`);
  }
  return text === "" ? 0 : parseInt(text, 8);
}

function checksumOk(header: Uint8Array): boolean {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) {
    sum += i >= 148 && i < 156 ? 32 : header[i];
  }
  return sum === octal(header, 148, 8);
}

/** The "path" record of a pax header, if any. */
function paxPath(body: Uint8Array): string | undefined {
  const text = decoder.decode(body);
  for (const record of text.split("\n")) {
    const match = record.match(/^\d+ path=(.*)$/);
    if (match) return match[1];
  }
  return undefined;
}

/**
 * A buffered reader over a byte stream: `read(n)` gives exactly n bytes,
 * or null at the end of the stream.
 */
class Reader {
  #reader: ReadableStreamDefaultReader<Uint8Array>;
  #chunks: Uint8Array[] = [];
  #buffered = 0;

  constructor(stream: ReadableStream<Uint8Array>) {
    this.#reader = stream.getReader();
  }

  async read(n: number): Promise<Uint8Array | null> {
    while (this.#buffered < n) {
      const { done, value } = await this.#reader.read();
      if (done) {
        if (this.#buffered === 0) return null;
        throw new TarError("the archive ends in the middle of a file");
      }
      this.#chunks.push(value);
      this.#buffered += value.length;
    }
    const out = new Uint8Array(n);
    let offset = 0;
    while (offset < n) {
      const chunk = this.#chunks[0];
      const take = Math.min(chunk.length, n - offset);
      out.set(chunk.subarray(0, take), offset);
      offset += take;
      if (take === chunk.length) this.#chunks.shift();
      else this.#chunks[0] = chunk.subarray(take);
    }
    this.#buffered -= n;
    return out;
  }

  /** Hands the next `n` bytes to `sink` in pieces as they come. */
  async pipe(n: number, sink: (piece: Uint8Array) => Promise<void>) {
    let left = n;
    while (left > 0) {
      const piece = await this.read(Math.min(left, 1 << 20));
      if (!piece) {
        throw new TarError("the archive ends in the middle of a file");
      }
      await sink(piece);
      left -= piece.length;
    }
  }

  cancel(): Promise<void> {
    return this.#reader.cancel();
  }
}

/**
 * Calls `onFile(name, size)` for each regular file of the gzip-compressed
 * tar `stream`; the sink it returns takes the contents in pieces (null:
 * skip the file). Names are as stored (npm's start with "package/").
 */
export async function readTgz(
  stream: ReadableStream<Uint8Array>,
  onFile: (
    name: string,
    size: number,
  ) => ((piece: Uint8Array) => Promise<void>) | null,
): Promise<void> {
  const reader = new Reader(
    stream.pipeThrough(
      new DecompressionStream("gzip") as unknown as TransformStream<
        Uint8Array,
        Uint8Array
      >,
    ),
  );
  try {
    let longName: string | undefined;
    while (true) {
      const header = await reader.read(BLOCK);
      if (!header || header.every((b) => b === 0)) return;
      if (!checksumOk(header)) {
        throw new TarError("a tar header's checksum is wrong (not a tarball?)");
      }
      const size = octal(header, 124, 12);
      const type = String.fromCharCode(header[156] || 48);
      const padded = Math.ceil(size / BLOCK) * BLOCK;
      const prefix = field(header, 345, 155);
      const stored = field(header, 0, 100);
      const name = longName ?? (prefix ? `${prefix}/${stored}` : stored);
      longName = undefined;
      if (type === "x" || type === "g") {
        const body = await reader.read(padded);
        if (!body) throw new TarError("the archive ends in a pax header");
        if (type === "x") longName = paxPath(body.subarray(0, size));
        continue;
      }
      const sink = type === "0" || type === "7" ? onFile(name, size) : null;
      await reader.pipe(size, sink ?? (() => Promise.resolve()));
      await reader.pipe(padded - size, () => Promise.resolve());
    }
  } catch (error) {
    await reader.cancel().catch(() => {});
    throw error;
  }
}
