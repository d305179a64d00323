/**
 * The licensed drug-knowledge providers a tenant can bring its own licence for: the
 * credential fields each one takes (validated on PUT), how a stored credential is put on
 * the outbound request, and where a free-text search and a record read go. Base URLs
 * come from config (BYOL_<PROVIDER>_BASE_URL), never from the tenant, so the vault cannot
 * be turned into a request forwarder to arbitrary hosts.
 */
import { validationError } from '../../platform/errors.ts';

/** Provider ids accepted in `/v1/byol/{provider}`. */
export const BYOL_PROVIDERS = ['drugbank', 'fdb', 'medispan'] as const;
/** One of BYOL_PROVIDERS. */
export type ByolProvider = (typeof BYOL_PROVIDERS)[number];

/** A credential: field name → value, exactly the provider's fields. */
export type Credential = Record<string, string>;

/** One field of a provider credential, as PUT validates it. */
export interface CredentialField {
  name: string;
  description: string;
  /** Shortest and longest accepted value; keys shorter than this are typos, not keys. */
  minLength: number;
  maxLength: number;
}

/** Everything the vault and the passthrough know about one provider. */
export interface ProviderDef {
  id: ByolProvider;
  label: string;
  fields: CredentialField[];
  /** The field whose last four characters GET may show (a key, never a password). */
  hintField: string | null;
  /** Headers carrying the credential on one outbound request. */
  authHeaders(credential: Credential): Record<string, string>;
  /** Sub-path and query of a free-text search. */
  search(q: string): { path: string; query: Record<string, string> };
  /** Sub-path of one record by the provider's own id. */
  record(id: string): string;
}

const field = (name: string, description: string, minLength = 8, maxLength = 512): CredentialField => ({ name, description, minLength, maxLength });

/** The provider definitions by id. */
export const PROVIDERS: Record<ByolProvider, ProviderDef> = {
  drugbank: {
    id: 'drugbank',
    label: 'DrugBank Clinical API',
    fields: [field('api_key', 'DrugBank API key (sent as the Authorization header).', 16)],
    hintField: 'api_key',
    authHeaders: (c) => ({ authorization: c.api_key ?? '' }),
    search: (q) => ({ path: 'drug_names', query: { q } }),
    record: (id) => `drugs/${encodeURIComponent(id)}`,
  },
  fdb: {
    id: 'fdb',
    label: 'FDB (First Databank) Cloud API',
    fields: [field('client_id', 'FDB client id.', 3, 128), field('client_secret', 'FDB shared secret.', 16)],
    hintField: 'client_secret',
    authHeaders: (c) => ({ authorization: `SHAREDKEY ${c.client_id ?? ''}:${c.client_secret ?? ''}` }),
    search: (q) => ({ path: 'Concepts/DispensableDrugs', query: { searchtext: q } }),
    record: (id) => `Concepts/DispensableDrugs/${encodeURIComponent(id)}`,
  },
  medispan: {
    id: 'medispan',
    label: 'Medi-Span (Wolters Kluwer) API',
    fields: [field('username', 'Medi-Span account user name.', 3, 128), field('password', 'Medi-Span account password.', 8, 256)],
    hintField: null,
    authHeaders: (c) => ({ authorization: `Basic ${Buffer.from(`${c.username ?? ''}:${c.password ?? ''}`).toString('base64')}` }),
    search: (q) => ({ path: 'drugs', query: { name: q } }),
    record: (id) => `drugs/${encodeURIComponent(id)}`,
  },
};

/**
 * Checks a PUT body's `credentials` against the provider's fields: every field present,
 * a string of plausible length, printable, and nothing else. Throws 422 `validation`
 * whose details name fields, never values.
 */
export function validateCredential(provider: ByolProvider, raw: unknown): Credential {
  const def = PROVIDERS[provider];
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    throw validationError('Body field credentials must be an object.', [{ location: 'body', field: 'credentials', message: 'must be an object' }]);
  }
  const given = raw as Record<string, unknown>;
  const details: Array<{ location: string; field: string; message: string }> = [];
  const known = new Set(def.fields.map((f) => f.name));
  for (const name of Object.keys(given)) {
    if (!known.has(name)) details.push({ location: 'body', field: `credentials.${name}`, message: `is not a ${provider} credential field` });
  }
  const credential: Credential = {};
  for (const f of def.fields) {
    const value = given[f.name];
    const problem = typeof value !== 'string' ? 'is required and must be a string'
      : value.length < f.minLength || value.length > f.maxLength ? `must be ${f.minLength} to ${f.maxLength} characters`
        : /[\u0000-\u001f\u007f]/.test(value) ? 'must not contain control characters' : null;
    if (problem) details.push({ location: 'body', field: `credentials.${f.name}`, message: problem });
    else credential[f.name] = value as string;
  }
  if (details.length) {
    throw validationError(`Invalid ${provider} credentials: ${details.map((d) => `${d.field} ${d.message}`).join('; ')}.`, details);
  }
  return credential;
}

/** The last four characters of the provider's key field, or null. */
export function credentialHint(provider: ByolProvider, credential: Credential): string | null {
  const name = PROVIDERS[provider].hintField;
  const value = name ? credential[name] : undefined;
  return value && value.length >= 12 ? value.slice(-4) : null;
}
