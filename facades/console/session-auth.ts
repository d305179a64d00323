/**
 * Authentication of /console/api calls: `Authorization: Bearer <console token>` only (no
 * cookie is read or set anywhere under /console), resolved to a live session before any
 * body is parsed. API keys are not console tokens and are refused here, as console tokens
 * are refused by /v1.
 */
import type { FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Database } from '../../platform/db.ts';
import type { Clock } from '../../platform/clock.ts';
import { ApiError } from '../../platform/errors.ts';
import { findSession } from '../../resolvers/accounts/console-sessions.ts';
import type { ConsoleSession } from '../../resolvers/accounts/console-sessions.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The console session of a /console/api request; null until authenticated. */
    consoleSession: ConsoleSession | null;
  }
}

const BEARER = /^Bearer +(\S+)\s*$/i;

/** The bearer token of a request, if it sent one. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  return header ? BEARER.exec(header)?.[1] : undefined;
}

/** onRequest hook: 401 `unauthorized` unless the request carries a live console token. */
export function requireConsoleSession(db: Database, now: Clock): onRequestHookHandler {
  return async function consoleSession(request: FastifyRequest) {
    const token = bearerToken(request);
    if (!token) throw new ApiError('unauthorized', 'A console token is required in the header `Authorization: Bearer <console token>`; sign in to the console.');
    const session = await findSession(db, token, now());
    if (!session) throw new ApiError('unauthorized', 'The console token is unknown, signed out or expired; sign in again.');
    request.consoleSession = session;
  };
}

/** The session of an authenticated request (the hook ran). */
export function sessionOf(request: FastifyRequest): ConsoleSession {
  if (!request.consoleSession) throw new ApiError('unauthorized');
  return request.consoleSession;
}
