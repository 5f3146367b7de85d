// BlobStore on S3-compatible storage (AWS S3, MinIO, Garage, R2...), signed
// with aws4fetch. Path-style URLs (ENDPOINT/BUCKET/KEY), which every
// S3-compatible server accepts. A body that outgrows one part is sent as a
// multipart upload, so a large upload is never held in memory whole.
import { AwsClient } from "aws4fetch";
import { logWarn } from "../log.ts";
import {
  type BlobInfo,
  BlobNotFound,
  type BlobStore,
  BlobStoreError,
  BlobStoreUnreachable,
  BlobTooLarge,
  type ByteRange,
  bytesOf,
  checkKey,
  checkPrefix,
  checkRange,
  type PutOptions,
} from "./blob_store.ts";

export interface S3Settings {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Bytes per multipart part; S3 requires at least 5 MiB but for the last. */
  partSize?: number;
  /**
   * Milliseconds a request is tried again while S3 cannot be reached or
   * answers "try again" (500, 502, 503, 504, 429), waits doubling from
   * RETRY_FIRST_MS to RETRY_MAX_MS (default RETRY_MS).
   */
  retryMs?: number;
}

/** How long a store that does not answer is waited for: a restart's time. */
const RETRY_MS = 60_000;
const RETRY_FIRST_MS = 100;
const RETRY_MAX_MS = 5_000;

/** Answers that pass by themselves; a full store (507) or a refusal do not. */
const TRY_AGAIN = new Set([429, 500, 502, 503, 504]);

const DEFAULT_PART_SIZE = 8 * 1024 * 1024;

export class S3BlobStore implements BlobStore {
  #client: AwsClient;
  #name: string;
  #bucketUrl: string;
  #partSize: number;
  #retryMs: number;

  constructor(settings: S3Settings) {
    this.#client = new AwsClient({
      accessKeyId: settings.accessKeyId,
      secretAccessKey: settings.secretAccessKey,
      region: settings.region,
      service: "s3",
      // Tried again here (#fetch), connection failures too.
      retries: 0,
    });
    this.#retryMs = settings.retryMs ?? RETRY_MS;
    const endpoint = settings.endpoint.replace(/\/+$/, "");
    this.#name = `S3 at ${endpoint}`;
    this.#bucketUrl = `${endpoint}/${encodeURIComponent(settings.bucket)}`;
    this.#partSize = settings.partSize ?? DEFAULT_PART_SIZE;
  }

  #url(key: string, query = ""): string {
    const path = checkKey(key).split("/").map(encodeURIComponent).join("/");
    return `${this.#bucketUrl}/${path}${query}`;
  }

  /** A request as its errors name it: method and key. */
  #request(url: string, init: RequestInit): string {
    const path = url.slice(this.#bucketUrl.length + 1).split("?")[0];
    return `${init.method ?? "GET"} ${decodeURIComponent(path)}`;
  }

  /**
   * Sends a request, trying it again with growing waits while S3 cannot be
   * reached or answers "try again", for up to `retryMs`; then throws
   * BlobStoreUnreachable. Any other answer is returned as it is.
   */
  async #fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const started = Date.now();
    for (let wait = RETRY_FIRST_MS;; wait = Math.min(wait * 2, RETRY_MAX_MS)) {
      let reason: string;
      try {
        const response = await this.#client.fetch(url, init);
        if (!TRY_AGAIN.has(response.status)) return response;
        reason = `it answered ${response.status}`;
        await response.body?.cancel();
      } catch (error) {
        reason = (error as Error).message;
      }
      const request = this.#request(url, init);
      if (Date.now() + wait - started > this.#retryMs) {
        throw new BlobStoreUnreachable(
          this.#name,
          request,
          Math.round((Date.now() - started) / 1000),
          reason,
        );
      }
      logWarn(
        `${this.#name}: ${request}: blob store failed (${reason}), trying ` +
          `again in ${wait} ms`,
      );
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  /** Sends a request (#fetch); an answer other than `ok` throws. */
  async #send(url: string, init: RequestInit, ok: number[] = [200]) {
    const response = await this.#fetch(url, init);
    if (ok.includes(response.status)) return response;
    const text = await response.text();
    throw new BlobStoreError(
      this.#name,
      this.#request(url, init),
      response.status,
      xmlValues(text, "Code")[0] ?? "",
      (xmlValues(text, "Message")[0] ?? text).slice(0, 300),
    );
  }

  async put(
    key: string,
    body: ReadableStream<Uint8Array>,
    options: PutOptions = {},
  ): Promise<number> {
    const parts = readParts(body, this.#partSize);
    let total = 0;
    const counted = async function* () {
      for await (const part of parts) {
        total += part.byteLength;
        if (options.maxBytes !== undefined && total > options.maxBytes) {
          throw new BlobTooLarge(key, options.maxBytes);
        }
        yield part;
      }
    }();
    const first = await counted.next();
    const second = first.done ? first : await counted.next();
    if (second.done) {
      // Fits in one request.
      const bytes = first.done ? new Uint8Array() : first.value;
      await this.#send(this.#url(key), { method: "PUT", body: bytes });
      return total;
    }
    const created = await this.#send(this.#url(key, "?uploads"), {
      method: "POST",
    });
    const uploadId = xmlValues(await created.text(), "UploadId")[0];
    const partUrl = (n: number) =>
      this.#url(
        key,
        `?partNumber=${n}&uploadId=${encodeURIComponent(uploadId)}`,
      );
    try {
      const etags: string[] = [];
      const upload = async (bytes: Uint8Array<ArrayBuffer>) => {
        const response = await this.#send(partUrl(etags.length + 1), {
          method: "PUT",
          body: bytes,
        });
        await response.body?.cancel();
        etags.push(response.headers.get("ETag") ?? "");
      };
      await upload(first.value!);
      await upload(second.value);
      for await (const part of counted) await upload(part);
      const manifest = etags.map((etag, index) =>
        `<Part><PartNumber>${index + 1}</PartNumber><ETag>${
          escapeXml(etag)
        }</ETag></Part>`
      ).join("");
      const done = await this.#send(
        this.#url(key, `?uploadId=${encodeURIComponent(uploadId)}`),
        {
          method: "POST",
          body:
            `<CompleteMultipartUpload>${manifest}</CompleteMultipartUpload>`,
        },
      );
      // S3 may answer 200 with an error document once the upload is assembled.
      const answer = await done.text();
      if (answer.includes("<Error>")) throw new Error(`S3: ${answer}`);
      return total;
    } catch (error) {
      await this.#client.fetch(
        this.#url(key, `?uploadId=${encodeURIComponent(uploadId)}`),
        { method: "DELETE" },
      ).then((response) => response.body?.cancel()).catch(() => {});
      throw error;
    }
  }

  async get(
    key: string,
    range: ByteRange = { start: 0 },
  ): Promise<ReadableStream<Uint8Array>> {
    checkRange(range);
    if (range.end === range.start) {
      // S3 cannot express an empty range; still report a missing blob.
      if (!await this.head(key)) throw new BlobNotFound(key);
      return new Blob([]).stream();
    }
    const headers: Record<string, string> = {};
    if (range.start > 0 || range.end !== undefined) {
      headers.Range = `bytes=${range.start}-${
        range.end === undefined ? "" : range.end - 1
      }`;
    }
    const response = await this.#fetch(this.#url(key), { headers });
    if (response.status === 404) {
      await response.body?.cancel();
      throw new BlobNotFound(key);
    }
    if (response.status === 416) {
      // The range starts at or past the end: no bytes, as a file would give.
      await response.body?.cancel();
      return new Blob([]).stream();
    }
    if (response.status !== 200 && response.status !== 206) {
      throw new Error(`S3 GET ${key} answered ${response.status}`);
    }
    return response.body ?? new Blob([]).stream();
  }

  async bytes(key: string, range?: ByteRange): Promise<Uint8Array> {
    return await bytesOf(await this.get(key, range));
  }

  async head(key: string): Promise<BlobInfo | null> {
    const response = await this.#fetch(this.#url(key), { method: "HEAD" });
    await response.body?.cancel();
    if (response.status === 404) return null;
    if (response.status !== 200) {
      throw new Error(`S3 HEAD ${key} answered ${response.status}`);
    }
    return {
      key,
      size: Number(response.headers.get("Content-Length") ?? 0),
      modifiedAt: new Date(response.headers.get("Last-Modified") ?? 0),
    };
  }

  async delete(key: string): Promise<void> {
    const response = await this.#send(this.#url(key), { method: "DELETE" }, [
      200,
      204,
      404,
    ]);
    await response.body?.cancel();
  }

  async listOlderThan(cutoff: Date, prefix = ""): Promise<BlobInfo[]> {
    checkPrefix(prefix);
    const found: BlobInfo[] = [];
    let token: string | undefined;
    do {
      const query = new URLSearchParams({ "list-type": "2", prefix });
      if (token) query.set("continuation-token", token);
      const response = await this.#send(`${this.#bucketUrl}?${query}`, {});
      const xml = await response.text();
      for (const entry of xmlValues(xml, "Contents")) {
        const modifiedAt = new Date(xmlValues(entry, "LastModified")[0]);
        if (modifiedAt >= cutoff) continue;
        found.push({
          key: xmlValues(entry, "Key")[0],
          size: Number(xmlValues(entry, "Size")[0]),
          modifiedAt,
        });
      }
      token = xmlValues(xml, "IsTruncated")[0] === "true"
        ? xmlValues(xml, "NextContinuationToken")[0]
        : undefined;
    } while (token);
    return found.sort((a, b) => a.key.localeCompare(b.key));
  }
}

/** Re-cuts a stream into pieces of exactly `size` bytes (the last may be short). */
async function* readParts(
  body: ReadableStream<Uint8Array>,
  size: number,
): AsyncGenerator<Uint8Array<ArrayBuffer>> {
  let part = new Uint8Array(size);
  let filled = 0;
  for await (const chunk of body) {
    let offset = 0;
    while (offset < chunk.byteLength) {
      const take = Math.min(size - filled, chunk.byteLength - offset);
      part.set(chunk.subarray(offset, offset + take), filled);
      filled += take;
      offset += take;
      if (filled === size) {
        yield part;
        part = new Uint8Array(size);
        filled = 0;
      }
    }
  }
  if (filled > 0) yield part.subarray(0, filled);
}

/** The text inside each <tag>...</tag>, entities decoded (S3's XML is flat). */
function xmlValues(xml: string, tag: string): string[] {
  const pattern = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, "g");
  return [...xml.matchAll(pattern)].map((match) => unescapeXml(match[1]));
}

function unescapeXml(text: string): string {
  return text.replace(/&(quot|apos|lt|gt|amp);/g, (_, name: string) =>
    ({
      quot: '"',
      apos: "'",
      lt: "<",
      gt: ">",
      amp: "&",
    })[name]!);
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
