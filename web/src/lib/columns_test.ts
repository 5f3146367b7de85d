import assert from "node:assert/strict";
import { defaultIpColumn, matchingIpColumns } from "./columns.ts";

Deno.test("defaultIpColumn picks the first header that names an IP", () => {
  assert.equal(
    defaultIpColumn(["ip_address", "client_id", "timestamp"]),
    "ip_address",
  );
  assert.equal(defaultIpColumn(["name", "Client_IP", "host"]), "Client_IP");
  assert.equal(defaultIpColumn(["id", "IPv4"]), "IPv4");
});

Deno.test("defaultIpColumn prefers IP names over look-alikes", () => {
  assert.equal(defaultIpColumn(["email_address", "ip"]), "ip");
  assert.equal(defaultIpColumn(["zip", "source ip"]), "source ip");
  assert.equal(defaultIpColumn(["description", "host"]), "host");
});

Deno.test("defaultIpColumn falls back to the first header", () => {
  assert.equal(defaultIpColumn(["name", "value"]), "name");
  assert.equal(defaultIpColumn([]), "");
});

Deno.test("matchingIpColumns keeps file order", () => {
  assert.deepEqual(
    matchingIpColumns(["server", "name", "ip_address"]),
    ["server", "ip_address"],
  );
});
