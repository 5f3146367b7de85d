// Registration data (RDAP) asked of a server that has it off: a job, a
// lookup and a batch are refused with the sentence saying how to enable it,
// and no request leaves the process (RDAP_URL points at nothing).
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { REGISTRATION_OFF } from "./registration_option.ts";
import {
  appTest,
  jsonRequest,
  uploadRequest,
} from "../../tests/helpers/test_app.ts";

appTest("registration data refused while RDAP is off", {
  RDAP_URL: "http://127.0.0.1:9",
}, async ({ app }) => {
  const uploaded = await (await app.request(
    "/api/upload",
    uploadRequest("a.csv", "ip\n12.34.56.10\n"),
  )).json();
  const job = await app.request(
    "/api/enrich",
    jsonRequest({
      fileName: uploaded.fileName,
      ipColumnName: "ip",
      includeGeolocation: 1,
      includeDomain: 0,
      includeCompany: 1,
      includeNetwork: 1,
      includeRegistration: 1,
    }),
  );
  assertEquals(job.status, 400);
  assertEquals((await job.json()).message, REGISTRATION_OFF);

  const lookup = await app.request(
    "/api/lookup?ip=12.34.56.10&registration=1",
  );
  assertEquals(lookup.status, 400);
  assertEquals((await lookup.json()).message, REGISTRATION_OFF);

  const batch = await app.request(
    "/api/lookup/batch",
    jsonRequest({ ips: ["12.34.56.10"], registration: 1 }),
  );
  assertEquals(batch.status, 400);

  // Without the flag: no registration fields in the answer.
  const plain = await (await app.request("/api/lookup?ip=12.34.56.10"))
    .json();
  assertEquals(plain.success, true);
  assertEquals("registered_org" in plain, false);
});
