// The Linnaeus AS labels (eval/linnaeus/, MIT): 46 hand-labelled categories
// per AS, read as this product's network types, with the project's own
// train/validation split. The mapping is written out in eval/README.md.
import type { NetworkKind } from "../server/classification/decide.ts";

const dir = new URL("./linnaeus/", import.meta.url).pathname;

export interface LinnaeusLabel {
  asn: number;
  /** The categories the AS carries (sublevel.csv's columns set to 1). */
  categories: string[];
  /** Access (consumer or mobile), as this product filters. */
  filtered: boolean;
  kind: NetworkKind;
  split: "train" | "val" | "test";
}

const has = (categories: string[], prefix: string) =>
  categories.some((c) => c.startsWith(prefix));

/**
 * A Linnaeus AS's network type. Access_LargeISP, Access_SmallISP and Mobile
 * are access (every Mobile AS also carries an Access flag), whatever other
 * role it has: a state-owned incumbent flagged Government, an ISP flagged
 * Enterprise_Technology or hosting on the side, an incumbent's main AS
 * flagged Transit carry households. Two exceptions, an Access_SmallISP
 * without Access_LargeISP whose customers are businesses: with
 * Transit_Global, a carrier's wholesale or enterprise arm (a fibre
 * wholesaler, an operator's global network); with Satellite and no Mobile,
 * a satellite operator's capacity for ships, enterprises and backhaul.
 * Other ASes take the type of their first
 * role in this order: education, government, hosting, business.
 */
export function linnaeusKind(categories: string[]): NetworkKind {
  const large = categories.includes("Access_LargeISP");
  const small = categories.includes("Access_SmallISP");
  const mobile = categories.includes("Mobile");
  const carrierArm = small && !large && categories.includes("Transit_Global");
  const satelliteCapacity = small && !large && !mobile &&
    categories.includes("Satellite");
  if ((large || small || mobile) && !carrierArm && !satelliteCapacity) {
    return mobile && !large && !small ? "mobile" : "consumer_isp";
  }
  if (has(categories, "EducationalResearch_")) return "education";
  if (
    has(categories, "Government_") || categories.includes("LawEnforcement")
  ) {
    return "government";
  }
  if (has(categories, "ContentProvider_")) return "hosting";
  return "business";
}

const rows = (text: string) =>
  text.trim().split("\n").map((line) => line.trim().split(","));

/** Every labelled AS with its split (those with a label and a split). */
export async function loadLinnaeus(): Promise<LinnaeusLabel[]> {
  const [sub, assignments] = await Promise.all([
    Deno.readTextFile(`${dir}sublevel.csv`),
    Deno.readTextFile(`${dir}assignments.csv`),
  ]);
  const splits = new Map(
    rows(assignments).slice(1).map(([asn, split]) => [Number(asn), split]),
  );
  const [header, ...body] = rows(sub);
  const out: LinnaeusLabel[] = [];
  for (const cells of body) {
    const asn = Number(cells[0]);
    const split = splits.get(asn);
    if (split !== "train" && split !== "val" && split !== "test") continue;
    const categories = header.slice(1).filter((_, i) =>
      Number(cells[i + 1]) > 0
    );
    const kind = linnaeusKind(categories);
    out.push({
      asn,
      categories,
      filtered: kind === "consumer_isp" || kind === "mobile",
      kind,
      split,
    });
  }
  return out;
}

/** Where the production classifier reads the train split's labels. */
export const TABLE_PATH =
  new URL("../server/data/linnaeus_asns.txt", import.meta.url).pathname;

/**
 * The table the classifier ships (server/data/linnaeus_asns.txt): the train
 * split only, so Linnaeus's validation and test ASes stay evidence-only
 * wherever they are measured; one "ASN type categories" line each, under
 * the source and its MIT notice.
 */
export function linnaeusTable(labels: LinnaeusLabel[]): string {
  const notice = Deno.readTextFileSync(`${dir}NOTICE.md`);
  const start = notice.indexOf("```\nMIT License") + 4;
  const mit = notice.slice(start, notice.indexOf("```", start)).trimEnd();
  const header = [
    "Linnaeus AS labels (https://github.com/NU-AquaLab/linnaeus, release",
    "data/released/202506/, commit 5baa8127b15b79f263042819cf56749399ce0a61),",
    "the train split only, each AS's categories mapped to a network type as",
    "eval/README.md describes. Written by `deno task fit:classifier` from",
    "eval/linnaeus/; do not edit (a curated list wins over a label here).",
    "Format: ASN network_type Category+Category",
    "",
    ...mit.split("\n"),
  ].map((l) => (l ? `# ${l}` : "#"));
  const rows = labels.filter((l) => l.split === "train")
    .sort((a, b) => a.asn - b.asn)
    .map((l) => `${l.asn} ${l.kind} ${l.categories.join("+")}`);
  return [...header, ...rows].join("\n") + "\n";
}
