// The words of an AS name as learned evidence: each word's smoothed log-odds
// of access against not, fitted on the training labels (eval/training.ts)
// and shipped in model_params.json. A name's score, the sum over its words,
// is one feature of the model: it reads names in any language the labels
// hold ("provedor", "fibra", "telecom" lean to access; "universidad",
// "hosting", "bank" against), where the hand-written cues of name_words.ts
// cover a few languages.

/** Word -> smoothed log-odds of access, relative to the prior. */
export type TokenTable = Record<string, number>;

/**
 * Legal forms and function words: they say where an organisation is
 * registered, not what it is, and learned they filter a country's
 * companies with its ISPs.
 */
const UNSAID = new Set(
  "llc inc ltd limited co corp corporation company gmbh ag sa de cv srl spa bv nv plc pty ab as oy kk jsc pjsc cjsc ojsc ooo lp llp ltda me epp eireli sl sas sarl sro spolka zoo sp pvt bhd sdn tbk pt kft zrt doo ad ood the of and la el le del da do dos das di du des en et und y e"
    .split(" "),
);

/**
 * The distinct words of a name that may say what it is: lower case, accents
 * dropped, 2+ characters, no number, no legal form or function word.
 */
export function nameTokens(org: string): string[] {
  const words = org.toLowerCase().normalize("NFKD").replace(/\p{M}/gu, "")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length >= 2 && !/^\d+$/.test(w) && !UNSAID.has(w));
  return [...new Set(words)];
}

/**
 * The beginnings and endings of a name's longer words ("tel~", "~net"):
 * small operators glue operator words into made-up names ("Fokusnet",
 * "Dreamlink", "Multicom") no labelled network shares whole.
 */
export function nameStems(org: string): string[] {
  const stems = nameTokens(org).filter((w) => w.length >= STEM_WORD)
    .flatMap((w) => [`${w.slice(0, STEM)}~`, `~${w.slice(-STEM)}`]);
  return [...new Set(stems)];
}

/** The word of a name that has `stem` (one of its nameStems). */
export function wordOfStem(org: string, stem: string): string | undefined {
  const part = stem.replace("~", "");
  return nameTokens(org).find((w) =>
    w.length >= STEM_WORD &&
    (stem.endsWith("~") ? w.startsWith(part) : w.endsWith(part))
  );
}

const STEM = 3;
/** Shortest word whose stems are read (a shorter one is its own word). */
const STEM_WORD = 5;

/**
 * A name's scores: the sums of its known words' and known stems' log-odds
 * (0: none known).
 */
export function nameScores(org: string, table: TokenTable): [number, number] {
  let words = 0, stems = 0;
  for (const w of nameTokens(org)) words += table[w] ?? 0;
  for (const w of nameStems(org)) stems += table[w] ?? 0;
  return [words, stems];
}

/**
 * The known word (or, `of` nameStems, stem) of a name that weighs most
 * either way, or null.
 */
export function strongestToken(
  org: string,
  table: TokenTable,
  of: (org: string) => string[] = nameTokens,
): string | null {
  let best: string | null = null;
  for (const w of of(org)) {
    if (table[w] === undefined) continue;
    if (best === null || Math.abs(table[w]) > Math.abs(table[best])) best = w;
  }
  return best;
}
