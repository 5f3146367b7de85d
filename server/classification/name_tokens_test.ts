import { deepStrictEqual as assertEquals } from "node:assert/strict";
import {
  nameScores,
  nameStems,
  nameTokens,
  strongestToken,
  wordOfStem,
} from "./name_tokens.ts";
import { MODEL } from "./model.ts";

Deno.test("a name's words: lower case, accents dropped, no legal form, number or function word", () => {
  assertEquals(
    nameTokens("Telecomunicações do Brasil LTDA - ME, AS 2 Fibra fibra"),
    ["telecomunicacoes", "brasil", "fibra"],
  );
  assertEquals(nameTokens("Universität Wien"), ["universitat", "wien"]);
  assertEquals(nameTokens(""), []);
});

Deno.test("a name's stems: the beginning and end of its longer words", () => {
  assertEquals(nameStems("Fokusnet Provedor de Internet LTDA ME"), [
    "fok~",
    "~net",
    "pro~",
    "~dor",
    "int~",
  ]);
  assertEquals(nameStems("AX Net SA"), []);
});

Deno.test("a name's scores sum its known words and stems; the strongest names the word", () => {
  const table = { fibra: 1.5, universidad: -2, net: 0.5, "~net": 0.75 };
  assertEquals(nameScores("Fibra Net", table), [2, 0]);
  assertEquals(nameScores("Unknown Words", table), [0, 0]);
  assertEquals(nameScores("Fokusnet", table), [0, 0.75]);
  assertEquals(strongestToken("Universidad Net", table), "universidad");
  assertEquals(strongestToken("Fokusnet", table, nameStems), "~net");
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

Deno.test("a stem's word is the name's word that has it", () => {
  assertEquals(wordOfStem("Fokusnet Broadband GmbH", "bro~"), "broadband");
  assertEquals(wordOfStem("Fokusnet Broadband GmbH", "~net"), "fokusnet");
  assertEquals(wordOfStem("Fokusnet Broadband GmbH", "~xyz"), undefined);
});
