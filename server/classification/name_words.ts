// What an organisation calls itself, as whole words: the classifier's name
// cues (decide.ts) and the model's name features (model.ts).
import type { NetworkType } from "../../shared/network_types.ts";

// Whole words of what an organisation calls itself. Brand words (Cox,
// Orange, Sky, Bell...) are deliberately absent: they say nothing.
const w = (source: string) =>
  new RegExp(`(?<![\\p{L}\\p{N}])(?:${source})(?![\\p{L}\\p{N}])`, "iu");

export const NAME_CUES: [RegExp, NetworkType, string][] = [
  [
    w("ministry|ministerio|minist[eè]re|government|gouvernement|department of defen[cs]e|DoD"),
    "government",
    "Ministry/Government",
  ],
  [
    w("universit(?:y|ies|ät|at|é|e|a|ad|ade|eit|as)|college|school district|public schools|schools?|academy|hochschule|polytechnic|institute of technology|education(?:al)? network"),
    "education",
    "University/School",
  ],
  [
    w("research|academic|forschung\\w*|ensino|pesquisa|scientific"),
    "education",
    "research & education",
  ],
  [
    w("hospital|klinikum|clinic|health(?:care)?|medical cent(?:er|re)"),
    "business",
    "Hospital/Health",
  ],
  [
    w("bank|banka|banco|insurance|mutual|capital|financial|credit union"),
    "business",
    "Bank/Finance",
  ],
  [
    w("laborator(?:y|ies)|motors?|manufacturing|industries|airlines?|hotels?|casino|construction|semiconductor|chemicals?|llp|law|electronics|automotive|automoveis|engineering|security|distribution|controls|outdoors|video"),
    "business",
    "company",
  ],
  [
    w("county|city of|city council|borough council|municipality|municipal|kommune|gemeente|stadt|library|fire authority|sanitation district|comptroller|prosecutor|ministerio publico|metropolitan government|state of"),
    "government",
    "public body",
  ],
];
export const HOSTING = w(
  "hosting|host|cloud|data ?cent(?:er|re)s?|datacenter|servers?|vps|colocation|cdn",
);
export const OPERATOR_ARM = w(
  "business|enterprise|international transit|wholesale|global solutions|group services|global services|carrier",
);
export const OPERATOR = w(
  "tele[ck]om\\w*|telecommunica\\w*|telekomunik\\w*|communications?|comunica\\w*|broadband|cable|internet|net|telephone|telefonica|telefónica|mobile|mobil|cellular|wireless|gsm|3g|celular|catv|fibra|fibre|fiber",
);
export const MOBILE = w("mobile|mobil|cellular|celular|wireless|gsm|3g|lte");
// Weak words for the model alone (no rule acts on them): networks built for
// other networks or for an institution's own sites.
export const INFRASTRUCTURE = w(
  "infrastructure|infraestructura|infrastruktur|wholesale|submarine|backbone|carrier|transit|datacom|ict|systems|solutions|consulting|technolog(?:y|ies)",
);
export const INSTITUTION = w(
  "foundation|funda[cç][aã]o|fundaci[oó]n|fondation|stiftung|association|asociaci[oó]n|verein|society|consortium|national|nacional|agency|authority|council|institut\\w*|health|nhs",
);
