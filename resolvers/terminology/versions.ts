/**
 * Code system versions: drugref holds one version of each served system, the newest
 * confirmed sync of the registers it comes from (as TerminologyCapabilities lists it). A
 * `version` parameter naming that version is answered as if absent; any other is refused
 * the FHIR way: the operations that read a code system version (`$lookup`, `$expand`,
 * `$translate`) answer 404 not-found, `$validate-code` answers 422 code-invalid, because
 * the coding's version is then the part of the coding at fault.
 */
import { ApiError } from '../../platform/errors.ts';
import type { RequestContext } from '../context.ts';
import { cachedSourceStatuses } from '../sources/status.ts';
import { systemVersion } from './capabilities.ts';
import type { TerminologySystem } from './systems.ts';

/** How an operation refuses a version it does not hold. */
export type VersionRefusal = 'not-found' | 'code-invalid';

/** The system's current version, ISO 8601 (null before its first sync), from the sources cache. */
export async function currentVersion(ctx: RequestContext, system: TerminologySystem): Promise<string | null> {
  return systemVersion(system, await cachedSourceStatuses(ctx.db, ctx.now()));
}

/** The version a request names: the `version` parameter, else a `|version` suffix of the system URI. */
export function requestedVersion(uri: string | null | undefined, version: string | null | undefined): string | null {
  if (version) return version;
  const bar = uri?.indexOf('|') ?? -1;
  return bar >= 0 ? uri!.slice(bar + 1) || null : null;
}

/** Two spellings of one instant (a client may echo the version with another precision). */
function sameVersion(asked: string, current: string): boolean {
  if (asked === current) return true;
  const a = Date.parse(asked);
  return Number.isFinite(a) && a === Date.parse(current);
}

/**
 * The system's current version (null before its first sync); throws the operation's refusal
 * when `asked` names another.
 */
export async function requireCurrentVersion(ctx: RequestContext, system: TerminologySystem, asked: string | null, refusal: VersionRefusal): Promise<string | null> {
  const current = await currentVersion(ctx, system);
  if (!asked || (current && sameVersion(asked, current))) return current;
  const held = current ? `only its current version ${current}` : 'no version of it yet (its registers have not synced)';
  const message = `${system.name} version ${asked} is not held: drugref serves ${held} (see /fhir/metadata?mode=terminology).`;
  if (refusal === 'not-found') throw new ApiError('not_found', message);
  throw new ApiError('validation', `Invalid request: ${message}`, {
    details: [{ location: 'query', field: 'version', message: 'names a version drugref does not hold' }],
    issue_type: 'code-invalid',
  });
}
