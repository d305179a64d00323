/**
 * Resolvers of the BYOL domain: the credential vault (status, store, delete) and the live
 * passthrough. Every operation acts on the caller's own tenant only: the account id comes
 * from the authenticated principal, never from the request.
 */
import { ApiError } from '../../platform/errors.ts';
import type { Keyring } from '../../platform/crypto/vault.ts';
import type { Config } from '../../platform/config.ts';
import type { RequestContext } from '../context.ts';
import { PROVIDERS, validateCredential } from './providers.ts';
import type { ByolProvider } from './providers.ts';
import { credentialStatus, deleteCredential, openCredential, storeCredential } from './vault.ts';
import type { VaultStatus } from './vault.ts';
import { passthrough } from './passthrough.ts';
import type { PassthroughArgs } from './passthrough.ts';

/** Seconds a client should wait before retrying while the vault has no master key. */
export const VAULT_RETRY_AFTER_SECONDS = 3600;

function accountOf(ctx: RequestContext): string {
  if (!ctx.principal) throw new ApiError('unauthorized');
  return ctx.principal.accountId;
}

function providerOf(raw: string): ByolProvider {
  // The route schema already refuses unknown providers with 422; this guards other callers.
  if (!(raw in PROVIDERS)) throw new ApiError('validation', `Unknown BYOL provider "${raw}".`, { details: [{ location: 'path', field: 'provider', message: 'is not a known provider' }] });
  return raw as ByolProvider;
}

/** The keyring, or 503 `unavailable` when no master key is configured (never store plaintext). */
export function keyringOf(config: Config): Keyring {
  const ring = { keys: config.byolMasterKeys, activeKeyId: config.byolActiveKeyId };
  if (!ring.activeKeyId || !ring.keys[ring.activeKeyId]) {
    throw new ApiError('unavailable', 'The credential vault has no master key configured; credentials cannot be stored or used right now.', {}, {
      'retry-after': String(VAULT_RETRY_AFTER_SECONDS),
    });
  }
  return ring;
}

const withFields = (status: VaultStatus) => ({ ...status, credentialFields: PROVIDERS[status.provider].fields.map((f) => f.name) });

/** Query and Mutation resolvers of the BYOL domain. */
export const byolResolvers = {
  Query: {
    byolStatus: async (_: unknown, args: { provider: string }, ctx: RequestContext) =>
      withFields(await credentialStatus(ctx.db, accountOf(ctx), providerOf(args.provider))),

    byolQuery: async (_: unknown, args: PassthroughArgs & { provider: string }, ctx: RequestContext) => {
      const provider = providerOf(args.provider);
      const ring = keyringOf(ctx.config);
      const credential = await openCredential(ctx.db, ring, accountOf(ctx), provider);
      if (!credential) throw new ApiError('not_found', `No ${provider} credential is configured for this account; store one with PUT /v1/byol/${provider}.`);
      const baseUrl = ctx.config.byolBaseUrls[provider];
      if (!baseUrl) throw new ApiError('unavailable', `The ${provider} provider has no base URL configured.`, {}, { 'retry-after': String(VAULT_RETRY_AFTER_SECONDS) });
      return passthrough({ baseUrl, timeoutMs: ctx.config.byolTimeoutMs, log: ctx.log, now: ctx.now }, provider, credential, args);
    },
  },
  Mutation: {
    putByolCredentials: async (_: unknown, args: { provider: string; credentials: unknown }, ctx: RequestContext) => {
      const provider = providerOf(args.provider);
      const ring = keyringOf(ctx.config);
      const credential = validateCredential(provider, args.credentials);
      return withFields(await storeCredential(ctx.db, ring, accountOf(ctx), provider, credential));
    },
    deleteByolCredentials: async (_: unknown, args: { provider: string }, ctx: RequestContext) => {
      const provider = providerOf(args.provider);
      keyringOf(ctx.config);
      return deleteCredential(ctx.db, accountOf(ctx), provider);
    },
  },
};
