// BlobStore in a local directory (DATA_DIR/uploads by default). It also
// serves several machines when the directory is a shared volume: a blob is
// written to a temporary name and renamed, so readers never see half a file.
import { dirname, join, relative, resolve, sep } from "node:path";
import {
  type BlobInfo,
  BlobKeyError,
  BlobNotFound,
  type BlobStore,
  type ByteRange,
  bytesOf,
  checkKey,
  checkPrefix,
  checkRange,
  limitBytes,
  type PutOptions,
} from "./blob_store.ts";

const READ_SIZE = 64 * 1024;

export class LocalBlobStore implements BlobStore {
  readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  /** The file for a key; refuses anything that would land outside the root. */
  #path(key: string): string {
    const path = resolve(this.root, checkKey(key));
    if (!path.startsWith(this.root + sep)) throw new BlobKeyError(key);
    return path;
  }

  async put(
    key: string,
    body: ReadableStream<Uint8Array>,
    options: PutOptions = {},
  ): Promise<number> {
    const path = this.#path(key);
    await Deno.mkdir(dirname(path), { recursive: true });
    const temporary = `${path}.part-${crypto.randomUUID()}`;
    try {
      const file = await Deno.open(temporary, { write: true, createNew: true });
      await body.pipeThrough(limitBytes(key, options.maxBytes))
        .pipeTo(file.writable);
      const { size } = await Deno.stat(temporary);
      await Deno.rename(temporary, path);
      return size;
    } catch (error) {
      await Deno.remove(temporary).catch(() => {});
      throw error;
    }
  }

  async get(
    key: string,
    range: ByteRange = { start: 0 },
  ): Promise<ReadableStream<Uint8Array>> {
    checkRange(range);
    let file: Deno.FsFile;
    try {
      file = await Deno.open(this.#path(key), { read: true });
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) throw new BlobNotFound(key);
      throw error;
    }
    await file.seek(range.start, Deno.SeekMode.Start);
    let remaining = range.end === undefined
      ? Infinity
      : range.end - range.start;
    const finish = () => {
      try {
        file.close();
      } catch { /* already closed */ }
    };
    return new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (remaining <= 0) {
          finish();
          controller.close();
          return;
        }
        const buffer = new Uint8Array(Math.min(READ_SIZE, remaining));
        const read = await file.read(buffer);
        if (read === null) {
          finish();
          controller.close();
          return;
        }
        remaining -= read;
        controller.enqueue(buffer.subarray(0, read));
      },
      cancel: finish,
    });
  }

  async bytes(key: string, range?: ByteRange): Promise<Uint8Array> {
    if (range) return await bytesOf(await this.get(key, range));
    try {
      return await Deno.readFile(this.#path(key));
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) throw new BlobNotFound(key);
      throw error;
    }
  }

  async head(key: string): Promise<BlobInfo | null> {
    try {
      const stat = await Deno.stat(this.#path(key));
      if (!stat.isFile) return null;
      return { key, size: stat.size, modifiedAt: stat.mtime ?? new Date(0) };
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await Deno.remove(this.#path(key)).catch((error) => {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    });
  }

  async listOlderThan(cutoff: Date, prefix = ""): Promise<BlobInfo[]> {
    checkPrefix(prefix);
    // Walk only the directory the prefix names; filter the rest by name.
    const start = prefix.includes("/")
      ? join(this.root, prefix.slice(0, prefix.lastIndexOf("/")))
      : this.root;
    const found: BlobInfo[] = [];
    const walk = async (dir: string): Promise<void> => {
      let entries;
      try {
        entries = await Array.fromAsync(Deno.readDir(dir));
      } catch (error) {
        if (error instanceof Deno.errors.NotFound) return;
        throw error;
      }
      for (const entry of entries) {
        const path = join(dir, entry.name);
        if (entry.isDirectory) {
          await walk(path);
          continue;
        }
        if (!entry.isFile) continue; // symlinks could point outside the root
        const key = relative(this.root, path).split(sep).join("/");
        if (!key.startsWith(prefix)) continue;
        const stat = await Deno.stat(path).catch(() => null);
        if (stat?.mtime && stat.mtime < cutoff) {
          found.push({ key, size: stat.size, modifiedAt: stat.mtime });
        }
      }
    };
    await walk(start);
    return found.sort((a, b) => a.key.localeCompare(b.key));
  }
}
