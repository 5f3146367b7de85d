// Bytes gathered as a chunk's lines are: text (ASCII copied as is, else
// encoded) and ranges of another buffer.
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { ByteSink } from "./byte_sink.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

Deno.test("text and ranges come out as written, past the first buffer", () => {
  const sink = new ByteSink();
  const long = "Zürich,".repeat(40);
  const head = encoder.encode("xx,Zürich,yy").length;
  const from = encoder.encode(`xx,Zürich,yy${long}`);
  let expected = "";
  for (let i = 0; i < 5000; i++) {
    const text = i % 3 ? `row ${i},` : `Müller "${i}" 東京,`;
    sink.text(text);
    // Short ranges are copied byte by byte, long ones at once.
    if (i % 2) sink.range(from, 3, 10);
    else sink.range(from, head, from.length);
    expected += text + (i % 2 ? "Zürich" : long);
  }
  sink.text("tail é");
  assertEquals(decoder.decode(sink.take()), expected + "tail é");
  assertEquals(sink.length, 0);
});

Deno.test("plain text goes as it is; text with a character not plain, not at all", () => {
  const plain = new Uint8Array(128).fill(1);
  plain[",".charCodeAt(0)] = 0;
  const sink = new ByteSink();
  assertEquals(sink.plain("host.example", plain), true);
  assertEquals(sink.plain("a,b", plain), false);
  assertEquals(sink.plain("bücher", plain), false);
  assertEquals(sink.plain("", plain), true);
  assertEquals(decoder.decode(sink.take()), "host.example");
});

Deno.test("takeAll hands the bytes over; release frees; either starts over", () => {
  const sink = new ByteSink();
  let expected = "";
  for (let i = 0; i < 50_000; i++) {
    sink.text(`${i},`);
    expected += `${i},`;
  }
  assertEquals(decoder.decode(sink.takeAll()), expected);
  assertEquals(sink.length, 0);
  sink.text("again");
  sink.release();
  assertEquals(sink.length, 0);
  sink.text("and again");
  assertEquals(decoder.decode(sink.take()), "and again");
});
