// A body read as text with a size cap that holds while reading: a body
// with no length, or a false one, is not read past the cap.

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
