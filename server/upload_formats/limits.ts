// The limit on what comes out of a compressed upload. The upload limit
// (MAX_UPLOAD_MB) counts the bytes sent; a compressed file can expand a
// thousandfold, so what it expands to has a limit of its own, checked while
// it streams so a zip bomb stops after the limit, not after the whole file.

import { byteLimit } from "../byte_limits.ts";

/** How many times MAX_UPLOAD_MB the decompressed output may be by default. */
export const UNCOMPRESSED_FACTOR = 50;

/** A file refused for what it is or what it holds; its message is the user's. */
export class UploadFormatError extends Error {
  override name = "UploadFormatError";
}

/** MAX_UNCOMPRESSED_MB from the environment; 50x MAX_UPLOAD_MB by default. */
export function maxUncompressedMb(
  env: Record<string, string | undefined>,
  maxUploadMb: number,
): number {
  const raw = env.MAX_UNCOMPRESSED_MB;
  if (raw === undefined || raw.trim() === "") {
    return maxUploadMb * UNCOMPRESSED_FACTOR;
  }
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) {
    throw new Error(`MAX_UNCOMPRESSED_MB must be a number > 0, got "${raw}"`);
  }
  return n;
}

export const MB = 1024 * 1024;

export function formatMb(bytes: number): string {
  const mb = bytes / MB;
  return Number.isInteger(mb) ? String(mb) : mb.toFixed(1);
}

export function tooLargeDecompressed(maxBytes: number): UploadFormatError {
  const mb = formatMb(maxBytes);
  return new UploadFormatError(
    `The file expands to more than ${mb} MB when decompressed; the server ` +
      `accepts up to ${mb} MB of data (MAX_UNCOMPRESSED_MB). Split it into ` +
      `smaller files and upload them one at a time.`,
  );
}

/** Errors once more than `maxBytes` came out of a decompressor. */
export const limitDecompressed = (maxBytes: number) =>
  byteLimit(maxBytes, () => tooLargeDecompressed(maxBytes));

/**
 * The same stream, with a decoder's own errors (corrupt data) turned into an
 * UploadFormatError that says which kind of file was expected.
 */
export function explainErrors(
  stream: ReadableStream<Uint8Array>,
  what: string,
): ReadableStream<Uint8Array> {
  const reader = stream.getReader();
  return new ReadableStream({
    async pull(controller) {
      try {
        const { value, done } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        controller.error(
          error instanceof UploadFormatError ? error : new UploadFormatError(
            `The file is not a valid ${what} (${(error as Error).message}).`,
          ),
        );
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}
