// Reads a JSON request body with a size cap, turning bad JSON into a 400.
import { ApiError, badRequest } from "../http_error.ts";

export const MAX_JSON_BYTES = 1024 * 1024;

export async function readJsonBody(
  request: Request,
  maxBytes = MAX_JSON_BYTES,
): Promise<unknown> {
  const length = Number(request.headers.get("content-length") ?? 0);
  if (length > maxBytes) {
    throw new ApiError(413, `The request body is over ${maxBytes} bytes`);
  }
  const text = await request.text();
  if (text.length > maxBytes) {
    throw new ApiError(413, `The request body is over ${maxBytes} bytes`);
  }
  if (text.trim() === "") throw badRequest("The request body is empty");
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest("The request body is not valid JSON");
  }
}
