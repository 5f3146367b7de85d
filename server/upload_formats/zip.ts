// .zip with one CSV inside: fflate's streaming Unzip reads the entries as
// the bytes arrive (local headers, no seeking), inflates only the CSV entry
// and counts its output against the limit. Input is fed a slice at a time,
// the next only once the last one's output is taken, so what is inflated
// and not yet read stays bounded (bounded_chunks.ts).
import { Unzip, UnzipInflate } from "fflate";
import { INFLATE_SLICE } from "./bounded_chunks.ts";
import { tooLargeDecompressed, UploadFormatError } from "./limits.ts";

/** Entries a zip tool adds beside the data: folders, macOS metadata. */
function isDataEntry(name: string): boolean {
  return !name.endsWith("/") && !/(^|\/)(__MACOSX\/|\.)/.test(name);
}

const TABLE_NAME = /\.(csv|tsv|txt)$/i;

/** The bytes of the one CSV (or .tsv, .txt) file in a zip stream. */
export function unzipSingleCsv(
  source: ReadableStream<Uint8Array>,
  maxBytes: number,
): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  const ready: Uint8Array[] = [];
  const others: string[] = [];
  let chosen: string | null = null;
  let failure: Error | null = null;
  let inputDone = false;
  let produced = 0;
  /** Input read and not yet fed to the decoder. */
  let input: Uint8Array = new Uint8Array(0);

  const unzip = new Unzip((file) => {
    if (!isDataEntry(file.name) || failure) return;
    if (!TABLE_NAME.test(file.name)) {
      others.push(file.name);
      return;
    }
    if (chosen !== null) {
      failure = new UploadFormatError(
        `The zip file holds more than one CSV file (${chosen}, ${file.name}); upload a zip with one CSV file inside.`,
      );
      return;
    }
    chosen = file.name;
    file.ondata = (error, data) => {
      if (failure) return;
      if (error) {
        failure = new UploadFormatError(
          `The zip file is damaged: ${error.message}.`,
        );
        return;
      }
      produced += data.byteLength;
      if (produced > maxBytes) failure = tooLargeDecompressed(maxBytes);
      else if (data.byteLength > 0) ready.push(data);
    };
    try {
      file.start();
    } catch (error) {
      failure = new UploadFormatError(
        `The zip file's ${file.name} cannot be read (${
          (error as Error).message
        }); save the zip again with standard (deflate) compression.`,
      );
    }
  });
  unzip.register(UnzipInflate);

  const push = (bytes: Uint8Array, final: boolean) => {
    try {
      unzip.push(bytes, final);
    } catch (error) {
      failure ??= new UploadFormatError(
        `The file is not a valid zip file (${(error as Error).message}).`,
      );
    }
  };

  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        if (failure) {
          await reader.cancel().catch(() => {});
          controller.error(failure);
          return;
        }
        const next = ready.shift();
        if (next) {
          controller.enqueue(next);
          return;
        }
        if (inputDone) {
          if (chosen === null) {
            controller.error(
              new UploadFormatError(
                others.length > 0
                  ? `The zip file holds no CSV file (found ${
                    others.slice(0, 3).join(", ")
                  }); put the CSV file in the zip.`
                  : "The zip file holds no CSV file, or is not a zip file.",
              ),
            );
          } else controller.close();
          return;
        }
        if (input.byteLength > 0) {
          push(input.subarray(0, INFLATE_SLICE), false);
          input = input.subarray(INFLATE_SLICE);
          continue;
        }
        const { value, done } = await reader.read();
        if (done) {
          inputDone = true;
          push(new Uint8Array(0), true);
        } else input = value;
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}
