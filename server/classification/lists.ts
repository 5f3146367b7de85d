// The curated AS lists, read from server/data (each path configurable:
// ISP_LIST, MOBILE_LIST, HOSTING_LIST, TRANSIT_LIST, EDUCATION_LIST).
import type { CuratedLists } from "./decide.ts";

const DATA = new URL("../data/", import.meta.url).pathname;

export interface ListPaths {
  consumer: string;
  mobile: string;
  hosting: string;
  transit: string;
  education: string;
}

export const DEFAULT_LIST_PATHS: ListPaths = {
  consumer: `${DATA}consumer_isps.txt`,
  mobile: `${DATA}mobile_asns.txt`,
  hosting: `${DATA}hosting_asns.txt`,
  transit: `${DATA}transit_asns.txt`,
  education: `${DATA}research_education_asns.txt`,
};

/** AS numbers of a list file: "64500 CC Name # note" lines, # comments. */
export function parseAsnList(text: string): number[] {
  const asns: number[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.replace(/#.*/, "").trim();
    if (!line) continue;
    const asn = Number(line.split(/\s+/)[0].replace(/^AS/i, ""));
    if (Number.isInteger(asn) && asn > 0) asns.push(asn);
  }
  return asns;
}

export async function loadCuratedLists(
  paths: ListPaths = DEFAULT_LIST_PATHS,
): Promise<CuratedLists> {
  const read = async (path: string) => {
    try {
      return new Set(parseAsnList(await Deno.readTextFile(path)));
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) {
        throw new Error(`AS list not found: ${path}`);
      }
      throw error;
    }
  };
  return {
    consumer: await read(paths.consumer),
    mobile: await read(paths.mobile),
    hosting: await read(paths.hosting),
    transit: await read(paths.transit),
    education: await read(paths.education),
  };
}
