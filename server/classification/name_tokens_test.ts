import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { nameScore, nameTokens, strongestToken } from "./name_tokens.ts";
import { MODEL } from "./model.ts";

Deno.test("a name's words: lower case, accents dropped, no legal form, number or function word", () => {
  assertEquals(
    nameTokens("Telecomunicações do Brasil LTDA - ME, AS 2 Fibra fibra"),
    ["telecomunicacoes", "brasil", "fibra"],
  );
  assertEquals(nameTokens("Universität Wien"), ["universitat", "wien"]);
  assertEquals(nameTokens(""), []);
});

Deno.test("a name's score sums its known words; the strongest names the word", () => {
  const table = { fibra: 1.5, universidad: -2, net: 0.5 };
  assertEquals(nameScore("Fibra Net", table), 2);
  assertEquals(nameScore("Unknown Words", table), 0);
  assertEquals(strongestToken("Universidad Net", table), "universidad");
  assertEquals(strongestToken("Unknown", table), null);
});

Deno.test("the shipped table has learned access words and institutions' words", () => {
  const t = MODEL.tokens;
  for (const w of ["telecom", "broadband"]) {
    assertEquals(t[w] > 0, true, `${w}: ${t[w]}`);
  }
  for (const w of ["university", "bank", "school"]) {
    assertEquals(t[w] < 0, true, `${w}: ${t[w]}`);
  }
  // legal forms are never learned
  assertEquals(t["ltda"], undefined);
});
