/**
 * Dose-form words → WHO administration route (the `Adm.R` codes of the DDD table: O, P, R,
 * N, SL, TD, V, Inhal), for registers that state no route of their own. The Swiss SL,
 * Refdata and Swissmedic name the form only inside the product name (`Filmtabl`, `Divitabs`,
 * `Kaps`, `Inj Lös`, `Supp`, `Creme`, `Tropfen`; `comprimé`, `gélule`; `compresse`), the
 * BDPM in its form field (`comprimé pelliculé`, `solution injectable`), German lists in the
 * Darreichungsform (the KBV/IFA codes `FTA`, `TAB`, `HKP` or words such as `Filmtabletten`),
 * dm+d and the FDA in English (`Gastro-resistant tablet`, `INJECTION, SOLUTION`).
 *
 * `local` marks forms with no systemic DDD (skin, eye, ear): recognised, so no DDD of
 * another route is guessed for them. Shared by the markets resolver and ATC linking.
 */

/** A WHO DDD route code, or `local` for forms WHO gives no DDD route for. */
export type WhoRoute = 'O' | 'P' | 'R' | 'N' | 'SL' | 'TD' | 'V' | 'Inhal' | 'local';

/**
 * German package form codes (KBV "Darreichungsform", used by the IFA and the Festbetrag
 * lists), read only when they are the whole field: three capitals say nothing in a name.
 */
const FORM_CODES: Readonly<Record<WhoRoute, readonly string[]>> = {
  O: ['BTA', 'DKA', 'DRA', 'DRM', 'ELI', 'FDA', 'FLE', 'FMR', 'FRB', 'FTA', 'GMR', 'GRA', 'GSE', 'HKM', 'HKP', 'HVW', 'KAP',
    'KDA', 'KMP', 'KMR', 'KTA', 'LSE', 'LTA', 'LUP', 'LUT', 'LYE', 'MIX', 'MRG', 'MRP', 'MTA', 'PAS', 'PLE', 'PSE', 'PUE', 'RED',
    'REK', 'RET', 'RGR', 'RUT', 'SAF', 'SIR', 'SMF', 'SMT', 'SUE', 'TAB', 'TEI', 'TKA', 'TLE', 'TMR', 'TRA', 'TRO', 'TRT', 'TSA',
    'TSE', 'TVW', 'UTA', 'WKA', 'WKM', 'ZKA'],
  P: ['AMP', 'DFL', 'DIS', 'FER', 'IFA', 'IFB', 'IFD', 'IFE', 'IFF', 'IFK', 'IFL', 'IID', 'IIL', 'IIM', 'IJD', 'ILO', 'INF', 'INI',
    'ISU', 'KID', 'KII', 'KRI', 'LYO', 'PEN', 'PHV', 'PII', 'PIJ', 'PIK', 'PIS', 'PKI', 'PLD', 'PLF', 'PLH', 'PLI', 'PLK', 'PLS',
    'SPA', 'SRI', 'STA', 'TAM', 'TRS', 'TSS', 'ZAM'],
  R: ['ESU', 'KKS', 'KLI', 'KLT', 'KSS', 'KSU', 'RKA', 'RSC', 'RSU', 'SMU', 'SSU', 'SUP'],
  V: ['OVU', 'VAL', 'VAR', 'VCR', 'VGE', 'VKA', 'VOV', 'VST', 'VSU', 'VTA'],
  N: ['NAG', 'NAO', 'NAS', 'NDS', 'NSA', 'NTR'],
  Inhal: ['DOS', 'HPI', 'IHA', 'IHP', 'IKA', 'INH', 'INL', 'LOV', 'SUV'],
  SL: ['SUL', 'SUT'],
  TD: ['PFL', 'PFT', 'SPT', 'TSY'],
  local: ['ASN', 'ASO', 'ATO', 'ATR', 'AUB', 'AUC', 'AUG', 'AUS', 'CRE', 'FET', 'GEL', 'LOT', 'OHT', 'PUD', 'SAL', 'SHA'],
};

const CODE_ROUTE = new Map<string, WhoRoute>(
  (Object.entries(FORM_CODES) as Array<[WhoRoute, readonly string[]]>).flatMap(([route, codes]) => codes.map((c) => [c, route] as [string, WhoRoute])),
);

// Read in order, first match wins: a route named outright (sublingual, transdermal,
// inhalation, eye, nasal, vaginal, oral) decides before a bare form noun, so
// `Vaginalzäpfchen` is V not R, `Trinkampullen` O not P, `Inhalationskapseln` Inhal not O,
// `Gel zum Einnehmen` O not local. Injections come before skin forms, whose `cutan` would
// otherwise take `sous-cutanée`. Words are matched on lower case without accents.
const RULES: ReadonlyArray<[RegExp, WhoRoute]> = [
  [/sublingu|\bsubling\b|lingualtabl|\blingual|buccal|bucco|buccogingiv|oromucos/, 'SL'],
  [/transderm|transdermi|\btts\b|matrixpfl|membranpfl|pflaster|\bpatch|cerott/, 'TD'],
  [/inhal|dosieraeros|turbuhaler|diskus|breezhaler|ellipta|respimat|nebuli|vernebl|\baerosol doseur/, 'Inhal'],
  [/augen|\bopht|ophthalm|ophtalm|collyre|collirio|\beyes?\b|ohren|auricul|\botic\b|\bears?\b|auricol/, 'local'],
  [/\bnas|nasal|nasen|\bnaso/, 'N'],
  [/vagin|\bovul|pessar|pessaire|\bvag\b/, 'V'],
  [/supp|zapfchen|\brect|rekt|klist|lavement|enema|clistere/, 'R'],
  [/zum einnehmen|\btrink|buvable|\boral|per os|bevibile/, 'O'],
  [/\binj|inject|\binf\b|infus|perfus|iniett|parenter|\bi\.[vm]\b|\biv\b|\bs\.?c\.?\b|sous.cutan|subcutan|subkutan|sottocut|intraven|intramusc|endoven|durchst|trockensub|stechamp|fertspr|fertigspr|fertpen|fertigpen|pre.?filled|prefilled|seringue|syringe|siringa|\bstylos?\b|\bpens?\b|\bvials?\b|ampul|ampoule|\bamp\b|\bfial[ae]\b|flaconcin|implant/, 'P'],
  [/creme|cream|crema|salbe|\bungt|pommade|ointment|unguent|pomata|\bgel\b|emulgel|lotion|shampoo|cutan|kutan|dermal|topi|\bhaut\b|\bpaste|puder|schaum|foam|tinktur|vernis|nagellack|mundspul|bain de bouche|mouthwash|gurgel/, 'local'],
  [/tabl|\btabs?\b|divitab|tablet|compr|\bcpr\b|\bcp\b|compress|caplet|dragee|\bdrag\b|kaps|kapsel|caps|gelul|\bcps\b|granul|\bgran\b|sachet|\bbtl\b|beutel|bustin|sirup|sirop|syrup|sciropp|jarabe|\bsaft\b|tropfen|\bgtt\b|gouttes|gocce|drops|lutsch|pastill|lozenge|troche|kaugummi|chewing gum|gomme|schmelzfilm|\bsusp\b|suspension|elixi|mixtur/, 'O'],
];

/** Lower case, accents removed, punctuation between words as spaces. */
function fold(text: string): string {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[,;:()[\]/+]/g, ' ');
}

/**
 * The WHO route a dose-form text names (`Filmtabl`, `comprimé pelliculé`, `Inj Lös`, `FTA`,
 * `solution for injection`, `Gtt Opht`), whole product names included (`Lopresor Divitabs
 * 200 mg`); null when it names none or only a form that goes several ways (`Lös`, `Plv`).
 */
export function routeOfDoseForm(text: string | null | undefined): WhoRoute | null {
  if (!text) return null;
  const code = CODE_ROUTE.get(text.trim());
  if (code) return code;
  const folded = fold(text);
  return RULES.find(([re]) => re.test(folded))?.[1] ?? null;
}

/** Each route named in a list of forms (`comprimé; solution injectable`), in order, once. */
export function routesOfDoseForms(text: string | null | undefined): WhoRoute[] {
  if (!text) return [];
  const parts = text.split(/;| et | and | und | oder | ou /);
  return [...new Set(parts.map(routeOfDoseForm).filter((r): r is WhoRoute => r !== null))];
}
