/**
 * The implicit value sets /fhir answers ($expand, ValueSet/$validate-code):
 * - `<system URI>?fhir_vs`: every code of a served system (FHIR's implicit value set);
 * - `urn:drugref:valueset:marketed:<country>:<system name>`: the marketed codes of one
 *   register country in one system, e.g. `urn:drugref:valueset:marketed:DE:PZN`;
 * - `urn:drugref:valueset:atc:<ATC code>:<system name>`: the marketed codes of products
 *   classed under an ATC code (descendants included), e.g. `urn:drugref:valueset:atc:N02BE:GTIN`.
 */
import { validationError } from '../../platform/errors.ts';
import { JURISDICTIONS } from '../../vocabulary/systems.ts';
import { TERMINOLOGY_SYSTEMS, systemOfUri } from './systems.ts';
import type { TerminologySystem } from './systems.ts';

export interface ValueSetSpec {
  url: string;
  system: TerminologySystem;
  /** Register country the codes come from; null for every country. */
  country: string | null;
  /** ATC prefix the products must fall under. */
  atc: string | null;
  /** Only marketed (active) codes are members. */
  marketedOnly: boolean;
}

const MARKETED = /^urn:drugref:valueset:marketed:([A-Z]{2}):([A-Za-z0-9+_-]+)$/;
const BY_ATC = /^urn:drugref:valueset:atc:([A-Z](?:\d{2}(?:[A-Z](?:[A-Z](?:\d{2})?)?)?)?):([A-Za-z0-9+_-]+)$/;

function refuse(url: string, why: string): never {
  throw validationError(`Invalid request: value set ${url} ${why}`, [{ location: 'query', field: 'url', message: why }]);
}

function systemNamed(url: string, name: string): TerminologySystem {
  const system = TERMINOLOGY_SYSTEMS.find((s) => s.name.toLowerCase() === name.toLowerCase());
  if (!system || system.kind !== 'identifier') refuse(url, `names no pack or product code system drugref serves (${name}).`);
  return system;
}

/** The value set a canonical URL stands for; a 422 for any other URL. */
export function parseValueSetUrl(raw: string): ValueSetSpec {
  const url = raw.split('|')[0] ?? raw;
  if (url.endsWith('?fhir_vs')) {
    const system = systemOfUri(url.slice(0, -'?fhir_vs'.length));
    if (!system) refuse(url, 'is the implicit value set of a code system drugref does not serve.');
    return { url, system, country: system.country, atc: null, marketedOnly: false };
  }
  const marketed = MARKETED.exec(url);
  if (marketed) {
    const country = marketed[1]!;
    if (!(JURISDICTIONS as readonly string[]).includes(country)) refuse(url, `names a country drugref holds no register of (${country}).`);
    return { url, system: systemNamed(url, marketed[2]!), country, atc: null, marketedOnly: true };
  }
  const byAtc = BY_ATC.exec(url);
  if (byAtc) {
    const system = systemNamed(url, byAtc[2]!);
    return { url, system, country: system.country, atc: byAtc[1]!, marketedOnly: true };
  }
  return refuse(url, 'is not one drugref serves: use <system>?fhir_vs, urn:drugref:valueset:marketed:<country>:<system> or urn:drugref:valueset:atc:<code>:<system>.');
}
