// A DNS server that never answers: a UDP port on loopback that reads every
// query and replies to none (the lookup API's resting tests and benchmark).

export interface SilentResolver {
  /** "127.0.0.1:PORT", the form DNS_SERVERS takes. */
  address: string;
  /** Queries received so far. */
  received(): number;
  close(): Promise<void>;
}

export function startSilentResolver(): SilentResolver {
  const socket = Deno.listenDatagram({
    transport: "udp",
    hostname: "127.0.0.1",
    port: 0,
  });
  let received = 0;
  const reading = (async () => {
    try {
      for await (const _ of socket) received++;
    } catch { /* closed */ }
  })();
  return {
    address: `127.0.0.1:${(socket.addr as Deno.NetAddr).port}`,
    received: () => received,
    async close() {
      socket.close();
      await reading;
    },
  };
}
