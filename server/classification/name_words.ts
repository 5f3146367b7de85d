// What an organisation calls itself, as whole words: the classifier's name
// cues (decide.ts) and the model's name features (model.ts).
import type { NetworkType } from "../../shared/network_types.ts";

// Whole words of what an organisation calls itself. Brand words (Cox,
// Orange, Sky, Bell...) are deliberately absent: they say nothing.
const w = (source: string) =>
  new RegExp(`(?<![\\p{L}\\p{N}])(?:${source})(?![\\p{L}\\p{N}])`, "iu");

export const NAME_CUES: [RegExp, NetworkType, string][] = [
  [
    w("ministry|ministries|ministerio|minist[eè]re|ministero|\\p{L}*ministerium|\\p{L}*ministeerium|ministeri[oö]|ministerstvo|ministarstvo|ministrstwo|ministrstvo|ministerie|bakanl[iı][gğ][iı]|government|gouvernement|gobierno|governo|regierung|department of defen[cs]e|DoD|armed forces|army|navy|air force|police|polizei|policia|pol[ií]cia|polizia|parliament|parlament|senado|senate|camera dei deputati|bundestag|assembl[eé]e nationale|c[aâ]mara dos deputados|c[aá]mara de diputados|congreso|sejm|riksdag|storting|folketing|eduskunta|knesset|commission|comisi[oó]n|comiss[aã]o|commissione|kommission|regulatory authority|tribunal|poder judicial|bundesamt|landesamt|bundesanstalt|bundesrechenzentrum|informationstechnikzentrum|itzbund|anstalt des [oö]ffentlichen rechts|a[oö]e?r"),
    "government",
    "Ministry/Government",
  ],
  [
    w("universit(?:y|ies|ät|aet|at|é|e|a|à|ad|ade|eit|as|et|ario|aria|aire)|universidad|universidade|universit[aà]|universit[eé]|universiteit|universitet|uniwersytet|univerzit[ae]|univerza|yliopisto|egyetem|[üu]niversitesi|universitas|daigaku|college|coll[eè]ge|colegio|school district|public schools|schools?|academy|akademie|akademia|academia|akademick\\p{L}*|akademisk\\p{L}*|\\p{L}*hochschule|polytechnic|politecnico|politechnika|polytechnique|institute of technology|instituto federal|instituto tecnol[oó]gico|escola|[eé]cole|lyc[eé]e|gymnasium|education(?:al)? network"),
    "education",
    "University/School",
  ],
  [
    w("research|academic|acad[eé]mica|acad[eé]mico|\\p{L}*forschung\\w*|forschungsnetz\\w*|recherche|investigaci[oó]n|investiga[cç][aã]o|ricerca|onderzoek|ensino|pesquisa|scientific|scientifique|cient[ií]fic[oa]|science|sciences|wissenschaft\\w*|nauk\\w*|nren|cnrs|csic|inria|fraunhofer|max[- ]planck"),
    "education",
    "research & education",
  ],
  [
    w("hospital|hospitais|hospitales|h[oô]pital|krankenhaus|klinikum|clinic|clinica|cl[ií]nica|health(?:care)?|medical cent(?:er|re)|sant[eé]|sa[uú]de"),
    "business",
    "Hospital/Health",
  ],
  [
    w("bank|banka|banco|banque|sparkasse|insurance|assurance|versicherung\\w*|seguros|mutual|capital|financial|credit union"),
    "business",
    "Bank/Finance",
  ],
  [
    w("internet exchange|exchange point|inter-?exchange|ixp?"),
    "business",
    "Internet exchange",
  ],
  [
    w("laborator(?:y|ies)|motors?|manufacturing|industries|airlines?|hotels?|casino|construction|semiconductor|chemicals?|llp|law|electronics|automotive|automoveis|engineering|security|distribution|controls|outdoors|video"),
    "business",
    "company",
  ],
  [
    w("county|city of|city council|borough council|municipality|municipal|municipio|munic[ií]pio|prefeitura|ayuntamiento|comune di|comune|provincia|provincie|regione|diputaci[oó]n|generalitat|junta de|gemeinde|landkreis|kommune|kommun|gemeente|stadt|library|biblioteca|biblioth[eè]que|fire authority|sanitation district|comptroller|prosecutor|ministerio publico|metropolitan government|state of"),
    "government",
    "public body",
  ],
];
export const HOSTING = w(
  "hosting|host|cloud|data ?cent(?:er|re)s?|datacenter|datacentre|datacenters|rechenzentrum|rechenzentren|centro de datos|centro de dados|centre de donn[eé]es|servers?|vps|colocation|cdn",
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
