// The curated AS lists, read from server/data (each path configurable:
// ISP_LIST, MOBILE_LIST, HOSTING_LIST, TRANSIT_LIST, EDUCATION_LIST), and the
// hand-labelled ASes of server/data/linnaeus_asns.txt.
import type { CuratedLists, LabelledAs, NetworkKind } from "./decide.ts";
import { NETWORK_TYPES } from "../../shared/network_types.ts";

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

/** Linnaeus's train split, mapped (written by `deno task fit:classifier`). */
export const LABELLED_PATH = `${DATA}linnaeus_asns.txt`;

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

/** A label table's lines: "64500 network_type Category+Category", # comments. */
export function parseLabelTable(
  text: string,
  source = "label table",
): Map<number, LabelledAs> {
  const out = new Map<number, LabelledAs>();
  text.split("\n").forEach((raw, i) => {
    const line = raw.replace(/#.*/, "").trim();
    if (!line) return;
    const [asn, type, categories = ""] = line.split(/\s+/);
    if (
      !/^\d+$/.test(asn) || !NETWORK_TYPES.includes(type as NetworkKind)
    ) {
      throw new Error(
        `${source} line ${
          i + 1
        }: expected "ASN network_type categories", got "${line}"`,
      );
    }
    out.set(Number(asn), { type: type as NetworkKind, categories });
  });
  return out;
}

export async function loadCuratedLists(
  paths: ListPaths = DEFAULT_LIST_PATHS,
  labelledPath = LABELLED_PATH,
): Promise<CuratedLists> {
  const read = async (path: string) => {
    try {
      return await Deno.readTextFile(path);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) {
        throw new Error(`AS list not found: ${path}`);
      }
      throw error;
    }
  };
  const set = async (path: string) => new Set(parseAsnList(await read(path)));
  return {
    consumer: await set(paths.consumer),
    mobile: await set(paths.mobile),
    hosting: await set(paths.hosting),
    transit: await set(paths.transit),
    education: await set(paths.education),
    labelled: parseLabelTable(await read(labelledPath), labelledPath),
  };
}

/** The lists in a structured-cloneable, compact form (sent to workers). */
export type CuratedListsData =
  & Record<Exclude<keyof CuratedLists, "labelled">, number[]>
  & { labelled: [number, LabelledAs][] };

export function listsData(lists: CuratedLists): CuratedListsData {
  return {
    consumer: [...lists.consumer],
    mobile: [...lists.mobile],
    hosting: [...lists.hosting],
    transit: [...lists.transit],
    education: [...lists.education],
    labelled: [...lists.labelled],
  };
}

export function listsFromData(data: CuratedListsData): CuratedLists {
  return {
    consumer: new Set(data.consumer),
    mobile: new Set(data.mobile),
    hosting: new Set(data.hosting),
    transit: new Set(data.transit),
    education: new Set(data.education),
    labelled: new Map(data.labelled),
  };
}
