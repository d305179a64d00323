/**
 * Errors raised before a route is found — a path that is not valid percent-encoding, a path
 * parameter longer than the router accepts, a URL longer than the service answers — and errors of the HTTP parser itself (header
 * fields too large, a request that never completed) answer from the one error table, with
 * the CORS headers every other answer carries, instead of Fastify's and Node's own bodies.
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../platform/errors.ts';
import { CORS_ANSWER_HEADERS } from './cors.ts';
import { sendError } from './errors.ts';

/** The router's limit on one path parameter (Fastify's `maxParamLength`). */
export const MAX_PARAM_LENGTH = 100;

/** The longest request URL (path and query) answered; longer ones get 414 however long. */
export const MAX_URL_LENGTH = 8192;

/** The 414 for a URL over MAX_URL_LENGTH, or null when `url` is within it. */
export function urlTooLong(url: string): ApiError | null {
  return url.length > MAX_URL_LENGTH ? new ApiError('uri_too_long', `The URL is longer than ${MAX_URL_LENGTH} characters.`) : null;
}

/**
 * Node's parser counts the request line into its header limit (16 KiB), so a URL far past
 * MAX_URL_LENGTH overflows it before any route sees it. The packet being parsed then starts
 * with the request line: when that line (complete or not) is longer than the URL limit the
 * URL is at fault (414), else the header fields are (431).
 */
function overflowError(rawPacket: unknown): ApiError {
  const text = Buffer.isBuffer(rawPacket) ? rawPacket.toString('latin1') : '';
  const line = /^[A-Z]+ (\S*)/.exec(text);
  return line && line[1]!.length > MAX_URL_LENGTH ? urlTooLong(line[1]!)! : new ApiError('headers_too_large');
}

/** Router errors (Fastify `frameworkErrors`) → the error table. */
export function frameworkErrors(error: { code?: string }, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const apiError = urlTooLong(request.raw.url ?? '') ?? (error.code === 'FST_ERR_MAX_PARAM_LENGTH'
    ? new ApiError('uri_too_long', `A path parameter is longer than ${MAX_PARAM_LENGTH} characters.`)
    : new ApiError('bad_request', error.code === 'FST_ERR_BAD_URL' ? 'The path is not valid percent-encoded UTF-8.' : undefined));
  return sendError(reply, apiError);
}

/** Parser errors (Fastify `clientErrorHandler`): written on the socket, which is then closed. */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const apiError = err.code === 'HPE_HEADER_OVERFLOW' ? overflowError((err as { rawPacket?: unknown }).rawPacket)
    : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? new ApiError('request_timeout') : new ApiError('bad_request', 'The request is not valid HTTP.');
  const body = JSON.stringify(apiError.toBody());
  const headers = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), connection: 'close', ...CORS_ANSWER_HEADERS };
  if (socket.writable) {
    const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}`).join('\r\n');
    socket.write(`HTTP/1.1 ${apiError.status} ${http.STATUS_CODES[apiError.status]}\r\n${head}\r\n\r\n${body}`);
  }
  socket.destroy(err);
}
