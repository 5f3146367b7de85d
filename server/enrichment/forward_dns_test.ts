// Forward resolution against a real dnsmasq on loopback with host records.
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { HOST_RECORDS, startPtrServer } from "../../tests/helpers/dnsmasq.ts";
import { resolveHostname } from "./forward_dns.ts";

const OPTIONS = { sanitizeOps: false, sanitizeResources: false };

Deno.test(
  "host names resolve forward: A first, then AAAA",
  OPTIONS,
  async () => {
    const dns = await startPtrServer(HOST_RECORDS);
    try {
      const servers = [{ ipAddr: "127.0.0.1", port: dns.port }];
      assertEquals(await resolveHostname("mail.example.test", servers), {
        ok: true,
        ip: "81.2.69.142",
        version: 4,
        note: "Host name mail.example.test resolved (A) to 81.2.69.142",
      });
      assertEquals(await resolveHostname("v6only.example.test", servers), {
        ok: true,
        ip: "2001:4860:4860::8888",
        version: 6,
        note:
          "Host name v6only.example.test resolved (AAAA) to 2001:4860:4860::8888",
      });
      assertEquals(await resolveHostname("office.example.test", servers), {
        ok: false,
        reason: "private_only",
        error:
          "Host name office.example.test resolves only to addresses not on the public internet (10.1.2.3)",
      });
      assertEquals(await resolveHostname("nothing.example.test", servers), {
        ok: false,
        reason: "no_address",
        error:
          "Host name nothing.example.test has no address (no A or AAAA record)",
      });
    } finally {
      await dns.stop();
    }
  },
);

Deno.test(
  "a name server that does not answer is a failure, not 'no address'",
  OPTIONS,
  async () => {
    const silent = Deno.listenDatagram({
      transport: "udp",
      hostname: "127.0.0.1",
      port: 0,
    });
    try {
      const port = (silent.addr as Deno.NetAddr).port;
      const answer = await resolveHostname(
        "mail.example.test",
        [{ ipAddr: "127.0.0.1", port }],
        200,
      );
      assertEquals(answer, {
        ok: false,
        reason: "no_answer",
        error:
          "Host name mail.example.test could not be resolved (no answer from the name servers)",
      });
    } finally {
      silent.close();
    }
  },
);
