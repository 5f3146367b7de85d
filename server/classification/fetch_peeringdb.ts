// `deno task fetch:peeringdb [URL]`: copies PeeringDB's per-network types
// into DATA_DIR (peeringdb-net.json), read by the server at its next start.
// Online, and off unless run: the default is the bundled data alone. URL
// defaults to PeeringDB's public /api/net; any server answering in its format
// will do (a mirror, or a test's loopback server).
import { loadConfig } from "../config.ts";
import { fetchPeeringDb, PEERINGDB_FILE, PEERINGDB_URL } from "./peeringdb.ts";

if (import.meta.main) {
  const url = Deno.args[0] ?? PEERINGDB_URL;
  const { dataDir } = loadConfig();
  try {
    await Deno.mkdir(dataDir, { recursive: true });
    const count = await fetchPeeringDb(url, dataDir);
    console.log(
      `${count} networks' types written to ${dataDir}/${PEERINGDB_FILE}; ` +
        "restart the server to use them",
    );
  } catch (error) {
    console.error(
      `PeeringDB copy not written: ${(error as Error).message}`,
    );
    Deno.exit(1);
  }
}
