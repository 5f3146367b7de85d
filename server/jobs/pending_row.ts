// A row's cell read as logs hold it, and the host names of a job's cells
// resolved forward, once each.
import type { Failure } from "../../shared/failures.ts";
import {
  type ForwardAnswer,
  resolveHostname,
} from "../enrichment/forward_dns.ts";
import { cellNote, readIpCell } from "../enrichment/ip_cell.ts";
import { type ParsedIp, parseIp } from "../enrichment/ip_input.ts";
import { type DnsSettings, parseServer } from "../enrichment/reverse_dns.ts";

// Host names resolved per job are remembered up to this many.
const HOSTNAME_LIMIT = 100_000;

/** Each host name resolved once (A, then AAAA) through the job's resolvers. */
export class HostnameCache {
  #answers = new Map<string, Promise<ForwardAnswer>>();

  constructor(private readonly settings: DnsSettings) {}

  resolve(hostname: string): Promise<ForwardAnswer> {
    let answer = this.#answers.get(hostname);
    if (!answer) {
      if (this.#answers.size >= HOSTNAME_LIMIT) this.#answers.clear();
      const { servers, timeoutMs } = this.settings;
      answer = resolveHostname(hostname, servers.map(parseServer), timeoutMs);
      this.#answers.set(hostname, answer);
    }
    return answer;
  }
}

/** A row's address failed: the cell (or host name) and why. */
export type CellFailed = (
  ip: string,
  failure: Failure,
  ipUsed: string | null,
) => void;

/**
 * A row from its cell as logs hold it (readIpCell: X-Forwarded-For chains,
 * quotes, ports, IPv4-mapped IPv6): `lookUp` gets the address and, when it
 * is not the cell as it stands, the note saying which was used. A host name
 * is resolved first when `hostnames` is given (the job's "Resolve host
 * names"), else the row fails saying so; then the answer comes later (the
 * promise returned).
 */
export function readCell(
  cell: string,
  hostnames: HostnameCache | null,
  lookUp: (parsed: ParsedIp, ipUsed: string | null) => void,
  failed: CellFailed,
): Promise<void> | undefined {
  // Most cells are one plain address: parsed at once, with no reading
  // (readIpCell splits and unwraps, which costs on a million rows).
  const direct = parseIp(cell);
  if (direct.ok && !(direct.version === 4 && cell.includes("::"))) {
    lookUp(direct, cellNote(cell, direct.ip));
    return;
  }
  const read = readIpCell(cell);
  if (read.kind === "address") {
    const { parsed } = read;
    // Not an address at all: the row shows the cell as it was, not the
    // piece of it the reader tried last.
    if (!parsed.ok && parsed.failure.kind === "invalid") {
      lookUp({ ...parsed, ip: cell.trim() }, null);
    } else lookUp(parsed, read.note);
    return;
  }
  const { hostname } = read;
  if (!hostnames) {
    failed(hostname, { kind: "hostname" }, null);
    return;
  }
  return hostnames.resolve(hostname).then((answer) =>
    answer.ok
      ? lookUp(
        { ok: true, ip: answer.ip, version: answer.version },
        answer.note,
      )
      : failed(hostname, { kind: "unresolved", range: answer.reason }, null)
  );
}
