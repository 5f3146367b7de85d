// postgres.js connections with TCP_NODELAY. A COPY ends with a small
// CopyDone message right after its data; with Nagle's algorithm on, that
// message waits for the server's delayed ACK of the data (40 ms on Linux),
// twice per COPY: a 100-row checkpoint took ~90 ms instead of ~3 ms.
import net from "node:net";

interface SocketOptions {
  host: string[];
  port: number[];
  path?: string | false;
}

/** postgres.js's `socket` option: a connecting socket with no delay. */
export function noDelaySocket(options: SocketOptions): net.Socket {
  const socket = options.path
    ? net.connect(options.path)
    : net.connect({ host: options.host[0], port: options.port[0] });
  socket.setNoDelay(true);
  return socket;
}
