/**
 * The shared HTTP pipeline of every authenticated /v1 endpoint: authenticate the bearer
 * key, count the request against quota, check the scope — all in onRequest, so a bad key
 * gets its 401 before any body is parsed or handler runs — and stamp authenticated 2xx and
 * 304 answers with `x-ratelimit-remaining` and `x-service-tier`.
 */
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Database } from '../../platform/db.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Principal } from '../../resolvers/accounts/keys.ts';
import { quotaRemaining } from '../../resolvers/accounts/quota.ts';
import type { Scope } from '../../resolvers/accounts/tiers.ts';
import type { Guard } from './auth.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    /** Requests left after this one; undefined until metered. */
    quotaRemaining: number | null | undefined;
  }
  interface FastifyInstance {
    /** onRequest hook that authenticates, meters (unless `metered: false`) and checks `scope`. */
    guarded(options: { scope: Scope | null; metered?: boolean }): onRequestHookHandler;
    guard: Guard;
  }
}

interface PipelineOptions {
  guard: Guard;
  db: Database;
  now: Clock;
}

async function pipeline(app: FastifyInstance, opts: PipelineOptions): Promise<void> {
  app.decorateRequest('principal', null);
  app.decorateRequest('quotaRemaining', undefined);
  app.decorate('guard', opts.guard);
  app.decorate('guarded', ({ scope, metered = true }: { scope: Scope | null; metered?: boolean }) => {
    return async function guardRequest(request: FastifyRequest) {
      const principal = await opts.guard.authenticate(request.headers.authorization);
      request.principal = principal;
      if (metered) request.quotaRemaining = await opts.guard.meter(principal);
      opts.guard.requireScope(principal, scope);
    };
  });

  // Callback style: a metered request already knows what is left, so most answers need no promise.
  app.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload, done) => {
    const principal = request.principal;
    // A 304 counted against quota like the 200 it stands for, so it says what is left too.
    const counted = (reply.statusCode >= 200 && reply.statusCode < 300) || reply.statusCode === 304;
    if (!principal || !counted) return done(null, payload);
    const stamp = (remaining: number | null) => {
      if (remaining !== null) reply.header('x-ratelimit-remaining', String(remaining));
      reply.header('x-service-tier', principal.tier);
      done(null, payload);
    };
    if (request.quotaRemaining !== undefined) return stamp(request.quotaRemaining);
    quotaRemaining(opts.db, principal.accountId, principal.tier, opts.now()).then(stamp, (err: Error) => done(err));
  });
}

export const pipelinePlugin = fp(pipeline, { name: 'drugref-pipeline' });
