import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { shortAscii } from "./ascii_text.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

Deno.test("shortAscii makes a short ASCII run's text and leaves the rest to a decoder", () => {
  const line = bytes('1.2.3.4,"Smith, Jane",é,');
  assertEquals(shortAscii(line, 0, 7), "1.2.3.4");
  assertEquals(shortAscii(line, 8, 21), '"Smith, Jane"');
  assertEquals(shortAscii(line, 3, 3), "");
  // Not ASCII, or longer than a short run: the caller decodes it.
  assertEquals(shortAscii(line, 22, 24), null);
  const long = bytes("a".repeat(65));
  assertEquals(shortAscii(long, 0, 65), null);
  assertEquals(shortAscii(long, 0, 64), "a".repeat(64));
  // Each run's own text, after a longer one.
  assertEquals(shortAscii(line, 0, 1), "1");
});
