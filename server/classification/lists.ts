// The curated AS lists, read from server/data (each path configurable).
import { parseAsnList } from "../enrichment/isp_classifier.ts";
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

export async function loadCuratedLists(
  paths: ListPaths = DEFAULT_LIST_PATHS,
): Promise<CuratedLists> {
  const read = async (path: string) =>
    new Set(parseAsnList(await Deno.readTextFile(path)));
  return {
    consumer: await read(paths.consumer),
    mobile: await read(paths.mobile),
    hosting: await read(paths.hosting),
    transit: await read(paths.transit),
    education: await read(paths.education),
  };
}
