// The address the listening line shows: one a person can open. A server
// bound to every interface (0.0.0.0, ::) is reached on this machine as
// localhost; the wildcard itself is no address a browser can open.

/** The URL to open for a server listening on `hostname`:`port`. */
export function openableUrl(hostname: string, port: number): string {
  if (hostname === "0.0.0.0" || hostname === "::") {
    return `http://localhost:${port}`;
  }
  const host = hostname.includes(":") ? `[${hostname}]` : hostname;
  return `http://${host}:${port}`;
}
