/**
 * How the built-in assistant chooses its lookups: from the words of the question, with no
 * language model. The question's intent is read first (an interaction check, a price, a pack
 * code, a named code system), then its subject: the drug names left once stop words,
 * intent words and strengths ("Dafalgan 1000", "500 mg") are set aside. Hand-written because
 * it is drugref's own routing table over drugref's own tools; no library knows these.
 */
import { detectCodes } from '../../vocabulary/codes.ts';
import type { ToolSpec } from './model.ts';

/** A lookup the assistant wants to run: a tool name and its arguments. */
export interface PlannedCall {
  name: string;
  args: Record<string, unknown>;
}

interface Property { type?: unknown; pattern?: unknown; enum?: unknown }

const STOP_WORDS = new Set(('what which who whose is are was the a an of for to in on about me tell show give find list does do can could please '
  + 'and or with any there their its it this that these those drug drugs medicine medicines code codes class atc information info '
  + 'called named name brand brands product products substance how many much price prices cost costs hello hey thanks thank you your '
  + 'help here know want need would like i my we our should may might take taking use using safe okay ok pack packs box '
  + 'switzerland germany france italy austria spain uk usa us america europe country countries market markets').split(' '));
const INTERACTION = /\b(interact\w*|contra-?indicat\w*|together|combin\w*|mix(?:ed|ing)?)\b/i;
const INTERACTION_WORDS = new Set('interact interacts interacting interaction interactions contraindicated contraindication together combine combined combining combination mix mixed mixing between check there safe risk risks'.split(' '));
/** Words that separate two drugs in "A and B", "A with B", "A, B + C". */
const SEPARATORS = new Set(['and', 'with', 'plus', 'or', 'vs', 'versus', '+', '&', ',', 'und', 'et', 'mit', 'avec']);
const PRICE = /\b(price[sd]?|pricing|costs?|how much|expensive|cheap(?:er|est)?|reimburs\w*|tariff)\b/i;
/** "1000", "1,5", "500mg", "20 %": a strength or an amount, never a code on its own. */
const STRENGTH = /^\d+(?:[.,]\d+)?(?:mg|g|mcg|µg|ug|ml|l|iu|ie|%|mmol)?$/i;
const UNITS = new Set(['mg', 'g', 'mcg', 'µg', 'ug', 'ml', 'l', 'iu', 'ie', '%', 'mmol', 'units', 'tablets', 'tabs', 'tablet', 'caps', 'capsules']);
/** A bare number is only a code when the question names its system ("rxcui 617312", "pharmacode 1234567"). */
const SYSTEM_WORDS: Record<string, string> = {
  rxcui: 'rxcui', rxnorm: 'rxcui', pharmacode: 'pharmacode', pharmacod: 'pharmacode', pzn: 'pzn', gtin: 'gtin', ean: 'ean',
  cip: 'cip13', cip13: 'cip13', ndc: 'ndc11', swissmedic: 'swissmedic_no', aic: 'aic',
};
/** Code kinds that name one pack, answered by the pack lookup. */
const PACK_KINDS = new Set(['gtin', 'ndc', 'cip13', 'pzn', 'aic']);
const FREE_TEXT = ['q', 'query', 'name', 'search'];

function propertiesOf(tool: ToolSpec): Record<string, Property> {
  return (tool.parameters.properties as Record<string, Property> | undefined) ?? {};
}

function requiredOf(tool: ToolSpec): string[] {
  return (tool.parameters.required as string[] | undefined) ?? [];
}

/** The question as tokens: words, numbers and codes, with separators kept as their own tokens. */
export function tokensOf(question: string): string[] {
  return question.replace(/([,+&?!;()])/g, ' $1 ').split(/\s+/).map((t) => t.replace(/^[.:'"]+|[.:'"?!]+$/g, '')).filter(Boolean);
}

function isStrength(token: string, next: string | undefined): boolean {
  if (!STRENGTH.test(token)) return false;
  // Bare digits of pack-code length are codes, unless a unit follows ("1000 mg").
  const digits = token.replace(/\D/g, '');
  return digits.length < 8 || (next !== undefined && UNITS.has(next.toLowerCase()));
}

/** A code the question names by system ("pharmacode 1234567", "RxCUI 617312"), or a self-evident pack code. */
interface FoundCode { token: string; system: string | null; kind: string | null }

function codesIn(tokens: string[]): FoundCode[] {
  const found: FoundCode[] = [];
  tokens.forEach((token, i) => {
    const named = SYSTEM_WORDS[(tokens[i - 1] ?? '').toLowerCase()];
    if (named && /\d/.test(token)) {
      found.push({ token, system: named, kind: named === 'rxcui' ? 'rxcui' : 'pack' });
      return;
    }
    if (!/\d/.test(token) || token.length < 3 || isStrength(token, tokens[i + 1])) return;
    const pack = detectCodes(token).find((c) => PACK_KINDS.has(c.kind));
    if (pack) found.push({ token, system: pack.system, kind: 'pack' });
    // Other code-like tokens (ATC, UNII …) are matched against the tools' own patterns; a bare
    // number never is, so a strength or a count cannot pass for an RxCUI.
    else if (!/^\d+$/.test(token)) found.push({ token, system: null, kind: null });
  });
  return found;
}

/** Drug names in order: runs of content words between separators, strengths and units dropped. */
export function drugNames(tokens: string[], codes: ReadonlySet<string>): string[] {
  const names: string[] = [];
  let run: string[] = [];
  const flush = () => {
    if (run.length) names.push(run.join(' '));
    run = [];
  };
  tokens.forEach((token, i) => {
    const lower = token.toLowerCase();
    if (SEPARATORS.has(lower)) return flush();
    if (codes.has(token)) {
      flush();
      names.push(token);
      return;
    }
    if (STOP_WORDS.has(lower) || INTERACTION_WORDS.has(lower) || UNITS.has(lower) || SYSTEM_WORDS[lower]) return flush();
    if (isStrength(token, tokens[i + 1]) || !/[a-zà-ÿ]/i.test(token) || token.length < 3) return;
    run.push(token);
  });
  flush();
  return names;
}

/** Searches that default to one country are asked for every country, when the tool allows it. */
function allCountries(tool: ToolSpec): Record<string, string> {
  const country = propertiesOf(tool).country;
  if (!country) return {};
  const allowed = Array.isArray(country.enum) ? country.enum.includes('ALL') : typeof country.pattern === 'string' ? new RegExp(country.pattern).test('ALL') : country.type === 'string';
  return allowed ? { country: 'ALL' } : {};
}

function freeTextCall(tools: ToolSpec[], subject: string, preferred: string): PlannedCall | null {
  const candidates = tools.filter((t) => FREE_TEXT.some((f) => f in propertiesOf(t)) && requiredOf(t).every((r) => FREE_TEXT.includes(r)));
  const tool = candidates.find((t) => t.name.startsWith(preferred)) ?? candidates[0];
  const field = tool && FREE_TEXT.find((f) => f in propertiesOf(tool));
  return tool && field ? { name: tool.name, args: { [field]: subject, ...allCountries(tool) } } : null;
}

function byName(tools: ToolSpec[], name: string): ToolSpec | undefined {
  return tools.find((t) => t.name === name);
}

/** The pack lookup for a code, with a system the tool accepts. */
function packCall(tools: ToolSpec[], code: FoundCode): PlannedCall | null {
  const tool = byName(tools, 'lookup_pack');
  const systems = propertiesOf(tool ?? { name: '', description: '', parameters: {} }).system?.enum;
  if (!tool || !Array.isArray(systems)) return null;
  const system = [code.system, ...detectCodes(code.token).map((c) => c.system)].find((s) => s && systems.includes(s));
  return system ? { name: tool.name, args: { system, code: code.token } } : null;
}

/** A code-like token against each tool's parameter patterns (ATC codes, UNIIs …). */
function patternCall(tools: ToolSpec[], token: string): PlannedCall | null {
  for (const tool of tools) {
    const match = Object.entries(propertiesOf(tool)).find(([, p]) => typeof p.pattern === 'string' && new RegExp(p.pattern).test(token));
    if (match && requiredOf(tool).every((r) => r === match[0])) return { name: tool.name, args: { [match[0]]: token } };
  }
  return null;
}

/** The first round of lookups for a question; [] when nothing in it can be looked up. */
export function planCalls(question: string, tools: ToolSpec[]): PlannedCall[] {
  const tokens = tokensOf(question);
  const codes = codesIn(tokens);
  const names = drugNames(tokens, new Set(codes.filter((c) => c.kind === 'pack').map((c) => c.token)));
  const check = byName(tools, 'check_interactions');
  if (INTERACTION.test(question) && check && names.length >= 2) return [{ name: check.name, args: { drugs: names.slice(0, 50) } }];

  const calls: PlannedCall[] = [];
  for (const code of codes) {
    const rxnorm = code.kind === 'rxcui' ? byName(tools, 'get_rxnorm_concept') : undefined;
    const call = rxnorm ? { name: rxnorm.name, args: { rxcui: code.token } } : code.kind === 'pack' ? packCall(tools, code) : patternCall(tools, code.token);
    if (call) calls.push(call);
  }
  if (calls.length) return calls;

  const subject = names[0]?.toLowerCase();
  if (!subject) return [];
  if (PRICE.test(question)) {
    const prices = byName(tools, 'market_prices');
    return [freeTextCall(tools, subject, 'search'), prices ? { name: prices.name, args: { q: subject } } : null].filter((c): c is PlannedCall => c !== null);
  }
  const search = freeTextCall(tools, subject, 'search');
  return search ? [search] : [];
}

/** Price questions follow the search to the top hit's profile, which carries its packs and prices. */
export function followUp(question: string, tools: ToolSpec[], done: Array<{ name: string; content: string }>): PlannedCall | null {
  const profile = byName(tools, 'get_drug_profile');
  if (!PRICE.test(question) || !profile || done.some((d) => d.name === profile.name)) return null;
  for (const d of done) {
    if (!d.name.startsWith('search')) continue;
    try {
      const first = (JSON.parse(d.content) as { results?: Array<{ id?: unknown }> }).results?.[0];
      if (typeof first?.id === 'string') return { name: profile.name, args: { id: first.id } };
    } catch {
      // A truncated or non-JSON answer has no id to follow.
    }
  }
  return null;
}
