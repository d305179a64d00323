/**
 * ValueSet/$expand: the /v1/drugs typeahead as a terminology operation. The filter runs
 * through `searchDrugs` (same tiers, same statements) restricted to the value set's country
 * and ATC class; each product found is listed under its codes in the value set's system,
 * which the search statement returns with the products (no round trip beyond the typeahead's).
 */
import { randomUUID } from 'node:crypto';
import { validationError } from '../../platform/errors.ts';
import type { RequestContext } from '../context.ts';
import { searchDrugs } from '../catalogue/search.ts';
import { languagesOf } from './systems.ts';
import { parseValueSetUrl } from './value-sets.ts';
import { expandAtc } from './expand-atc.ts';
import { requestedVersion, requireCurrentVersion } from './versions.ts';

/** Page bounds of an expansion (the typeahead reads at most offset + count products). */
export const EXPAND_MAX_COUNT = 100;
export const EXPAND_MAX_OFFSET = 100;
const EXPAND_DEFAULT_COUNT = 20;

export interface ExpandArgs {
  url: string;
  /** The value set's version: an implicit value set has its code system's. */
  version?: string | null;
  filter?: string | null;
  count?: number | null;
  offset?: number | null;
  displayLanguage?: string | null;
}

function bounded(name: string, value: number | null | undefined, fallback: number, max: number): number {
  const n = value ?? fallback;
  if (!Number.isInteger(n) || n < 0 || n > max) throw validationError(`Invalid request: ${name} must be an integer from 0 to ${max}.`, [{ location: 'query', field: name, message: `must be 0 to ${max}` }]);
  return n;
}

/**
 * The expansion of one implicit value set, filtered; a 422 without a filter (every pack of a
 * register is no page). ATC is searched in its tree (expand-atc.ts), with the total.
 */
export async function expandValueSet(ctx: RequestContext, args: ExpandArgs): Promise<Record<string, unknown>> {
  const spec = parseValueSetUrl(args.url);
  const count = bounded('count', args.count, EXPAND_DEFAULT_COUNT, EXPAND_MAX_COUNT);
  const offset = bounded('offset', args.offset, 0, EXPAND_MAX_OFFSET);
  const filter = args.filter?.trim();
  if (!filter) throw validationError('Invalid request: $expand needs a filter (words or a code); whole registers are not expanded.', [{ location: 'query', field: 'filter', message: 'is required' }]);
  const version = await requireCurrentVersion(ctx, spec.system, requestedVersion(args.url, args.version), 'not-found');
  const page = { filter, count, offset, displayLanguage: args.displayLanguage ?? null };
  if (spec.system.kind === 'atc') {
    const atc = await expandAtc(ctx.db, filter, count, offset);
    const contains = atc.matches.map((m) => ({ system: spec.system.uri, code: m.code, display: m.name, designation: [{ language: 'en', value: m.name }] }));
    return valueSet(ctx, spec.url, version, page, contains, atc.total);
  }
  if (spec.system.kind !== 'identifier') throw validationError(`Invalid request: ${spec.system.name} is not expanded; look its codes up with CodeSystem/$lookup.`, [{ location: 'query', field: 'url', message: 'is not expandable' }]);
  const found = await searchDrugs(ctx.db, {
    q: filter, country: spec.country ?? 'ALL', atc: spec.atc, limit: Math.max(1, offset + count), codesIn: spec.system.stored,
  }, ctx.loaders.catalogue.ingredients);
  const drugs = found.results.slice(offset, offset + count).filter((d) => !spec.marketedOnly || d.marketingStatus === 'active');
  const contains = drugs.flatMap((drug) => {
    const language = languagesOf(drug.country)[0] ?? 'en';
    return (found.codes?.get(drug.id) ?? []).map((code) => ({
      system: spec.system.uri, code, display: drug.productName,
      ...(drug.marketingStatus === 'active' ? {} : { inactive: true }),
      designation: [{ language, value: drug.productName }],
    }));
  });
  return valueSet(ctx, spec.url, version, page, contains, null);
}

interface Page { filter: string; count: number; offset: number; displayLanguage: string | null }

/** The answered ValueSet: an implicit value set is versioned with its code system. */
function valueSet(ctx: RequestContext, url: string, version: string | null, page: Page, contains: object[], total: number | null): Record<string, unknown> {
  return {
    resourceType: 'ValueSet',
    url,
    ...(version ? { version } : {}),
    status: 'active',
    expansion: {
      identifier: `urn:uuid:${randomUUID()}`,
      timestamp: ctx.now().toISOString(),
      ...(total === null ? {} : { total }),
      offset: page.offset,
      parameter: [
        { name: 'filter', valueString: page.filter },
        { name: 'count', valueInteger: page.count },
        { name: 'offset', valueInteger: page.offset },
        ...(page.displayLanguage ? [{ name: 'displayLanguage', valueCode: page.displayLanguage }] : []),
      ],
      ...(contains.length ? { contains } : {}),
    },
  };
}
