// Reads a JSON request body with a size cap, turning bad JSON into a 400.
// The cap holds while reading: a chunked body with no length is not read
// past it.
import { ApiError, badRequest } from "../http_error.ts";

export const MAX_JSON_BYTES = 1024 * 1024;

const tooLarge = (maxBytes: number) =>
  new ApiError(413, `The request body is larger than ${maxBytes} bytes`);

export async function readJsonBody(
  request: Request,
  maxBytes = MAX_JSON_BYTES,
): Promise<unknown> {
  const length = Number(request.headers.get("content-length") ?? 0);
  if (length > maxBytes) throw tooLarge(maxBytes);
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > maxBytes) {
        await reader.cancel().catch(() => {});
        throw tooLarge(maxBytes);
      }
      chunks.push(value);
    }
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  const text = new TextDecoder().decode(bytes);
  if (text.trim() === "") throw badRequest("The request body is empty");
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest("The request body is not valid JSON");
  }
}
