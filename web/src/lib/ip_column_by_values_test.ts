import assert from "node:assert/strict";
import { looksLikeAddress, pickIpColumn } from "./ip_column_by_values.ts";

Deno.test("the column whose values are addresses wins over a header name", () => {
  const headers = ["ip", "visitor", "page"];
  const rows = [
    ["n/a", "81.2.69.142", "/"],
    ["n/a", "2001:4860:4860::8888", "/pricing"],
    ["", "8.8.8.8", "/"],
  ];
  assert.deepEqual(pickIpColumn(headers, rows), {
    column: "visitor",
    by: "values",
    share: 1,
  });
});

Deno.test("most values, not all: a few bad cells do not lose the column", () => {
  const rows = [
    ["a", "81.2.69.142"],
    ["b", "-"],
    ["c", "8.8.4.4"],
    ["d", "1.1.1.1"],
  ];
  const choice = pickIpColumn(["name", "src"], rows);
  assert.equal(choice.column, "src");
  assert.equal(choice.share, 0.75);
});

Deno.test("the larger share wins; a tie goes to the header rules", () => {
  const rows = [
    ["10.0.0.1", "81.2.69.142"],
    ["10.0.0.2", "x"],
  ];
  assert.equal(pickIpColumn(["a", "b"], rows).column, "a");
  const tie = [["10.0.0.1", "81.2.69.142"]];
  assert.equal(pickIpColumn(["gateway", "client_ip"], tie).column, "client_ip");
  assert.equal(pickIpColumn(["first", "second"], tie).column, "first");
});

Deno.test("no column of addresses falls back to the header rules", () => {
  const rows = [["alice", "mail.example.com"], ["bob", "www.example.org"]];
  assert.deepEqual(pickIpColumn(["name", "host"], rows), {
    column: "host",
    by: "header",
    share: 0,
  });
  assert.equal(pickIpColumn(["a", "b"], []).column, "a");
  assert.equal(pickIpColumn([], []).column, "");
});

Deno.test("addresses as logs hold them", () => {
  for (
    const cell of [
      "81.2.69.142",
      " 81.2.69.142 ",
      '"81.2.69.142"',
      "81.2.69.142:443",
      "[2001:db8::1]:443",
      "81.2.69.142, 10.0.0.1",
      "::ffff:81.2.69.142",
      "::1",
      "2001:0db8:0000:0000:0000:ff00:0042:8329",
    ]
  ) assert.equal(looksLikeAddress(cell), true, cell);
  for (
    const cell of [
      "",
      "1.2.3",
      "256.1.1.1",
      "mail.example.com",
      "12:30",
      "2001:db8::1::2",
      "1:2:3:4:5:6:7:8:9",
      "deadbeef",
    ]
  ) assert.equal(looksLikeAddress(cell), false, cell);
});
