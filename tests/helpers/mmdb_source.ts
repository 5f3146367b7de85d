// The networks of MaxMind's test source JSON (tests/fixtures/mmdb/
// source-data) and the record each address should have: the expected
// answers of the vendored test databases.

const FIXTURES = new URL("../fixtures/mmdb/", import.meta.url).pathname;

type Entry = Record<string, Record<string, unknown>>;
const source = (name: string): [string, Record<string, unknown>][] =>
  (JSON.parse(
    Deno.readTextFileSync(`${FIXTURES}source-data/${name}`),
  ) as Entry[]).map((entry) => Object.entries(entry)[0]);

/** An address as a 128-bit number (IPv4 inside ::/96, as the tree has it). */
function toBig(ip: string): bigint {
  if (!ip.includes(":")) {
    return ip.split(".").reduce((n, part) => (n << 8n) | BigInt(part), 0n);
  }
  let [head, tail] = ip.split("::");
  const v4 = (tail ?? head).match(/(\d+\.\d+\.\d+\.\d+)$/);
  const words = (s: string) =>
    s ? s.split(":").filter((w) => !w.includes(".")) : [];
  if (v4) {
    const n = toBig(v4[1]);
    const hex = [(n >> 16n).toString(16), (n & 0xffffn).toString(16)];
    if (tail === undefined) head = [...words(head), ...hex].join(":");
    else tail = [...words(tail), ...hex].join(":");
  }
  const front = words(head);
  const back = tail === undefined ? [] : words(tail);
  const all = [
    ...front,
    ...Array(8 - front.length - back.length).fill("0"),
    ...back,
  ];
  return all.reduce((n, w) => (n << 16n) | BigInt(parseInt(w, 16)), 0n);
}

export function fromBig(n: bigint, v4: boolean): string {
  if (v4) return [24n, 16n, 8n, 0n].map((s) => (n >> s) & 255n).join(".");
  const words = [];
  for (let s = 112n; s >= 0n; s -= 16n) {
    words.push(((n >> s) & 0xffffn).toString(16));
  }
  return words.join(":");
}

export interface Network {
  first: bigint;
  last: bigint;
  v4: boolean;
  data: Record<string, unknown>;
}

/** Networks in the writer's order: a later network replaces an earlier one. */
export function networks(name: string): Network[] {
  return source(name).map(([cidr, data]) => {
    const [ip, bits] = cidr.split("/");
    // "::214.0.0.0/120" is an IPv4 network inside ::/96.
    const mapped = ip.startsWith("::") && ip.includes(".");
    const v4 = !ip.includes(":") || mapped;
    const width = v4 ? 32 : 128;
    const prefix = Number(bits) - (mapped ? 96 : 0);
    const size = 1n << BigInt(width - prefix);
    // The writer masks the address to its prefix ("::74.209.24.0/116" is
    // 74.209.16.0/20).
    const first = toBig(mapped ? ip.slice(2) : ip) & ~(size - 1n);
    return { first, last: first + size - 1n, v4, data };
  });
}

export function expected(all: Network[], v4: boolean, n: bigint) {
  let found: Record<string, unknown> | null = null;
  for (const net of all) {
    if (net.v4 === v4 && net.first <= n && n <= net.last) found = net.data;
  }
  return found;
}

/** An address at one end of a source network, and the record it should have. */
export interface Edge {
  ip: string;
  version: 4 | 6;
  /** Null where no network of the file holds it. */
  data: Record<string, unknown> | null;
}

/** Both ends of every network of the source file `name`. */
export function networkEdges(name: string): Edge[] {
  const all = networks(name);
  return all.flatMap((net) =>
    [net.first, net.last].map((n) => ({
      ip: fromBig(n, net.v4),
      version: net.v4 ? 4 as const : 6 as const,
      data: expected(all, net.v4, n),
    }))
  );
}
