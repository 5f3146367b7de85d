// Size caps that hold while a stream is read: a body with no length, or a
// false one, is not read past its cap.

/** The body as UTF-8 text, or null (and the rest unread) past `limit` bytes. */
export async function boundedText(
  body: ReadableStream<Uint8Array> | null,
  limit: number,
): Promise<string | null> {
  if (!body) return "";
  const decoder = new TextDecoder();
  let text = "";
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    // Leaving the loop cancels the rest of the stream.
    if (size > limit) return null;
    text += decoder.decode(chunk, { stream: true });
  }
  return text + decoder.decode();
}

/**
 * Passes bytes through and errors with `tooLarge()` once more than
 * `maxBytes` went by; the error cancels what feeds it, so the rest of the
 * input is never read.
 */
export function byteLimit(
  maxBytes: number,
  tooLarge: () => Error,
): TransformStream<Uint8Array, Uint8Array> {
  let seen = 0;
  return new TransformStream({
    transform(chunk, controller) {
      seen += chunk.byteLength;
      if (seen > maxBytes) throw tooLarge();
      controller.enqueue(chunk);
    },
  });
}
