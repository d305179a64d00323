/**
 * Errors raised before a route is found — a path that is not valid percent-encoding, a path
 * parameter longer than the router accepts — and errors of the HTTP parser itself (header
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

/** Router errors (Fastify `frameworkErrors`) → the error table. */
export function frameworkErrors(error: { code?: string }, _request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const apiError = error.code === 'FST_ERR_MAX_PARAM_LENGTH'
    ? new ApiError('uri_too_long', `A path parameter is longer than ${MAX_PARAM_LENGTH} characters.`)
    : new ApiError('bad_request', error.code === 'FST_ERR_BAD_URL' ? 'The path is not valid percent-encoded UTF-8.' : undefined);
  return sendError(reply, apiError);
}

/** Parser errors (Fastify `clientErrorHandler`): written on the socket, which is then closed. */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const apiError = err.code === 'HPE_HEADER_OVERFLOW' ? new ApiError('headers_too_large')
    : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? new ApiError('request_timeout') : new ApiError('bad_request', 'The request is not valid HTTP.');
  const body = JSON.stringify(apiError.toBody());
  const headers = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), connection: 'close', ...CORS_ANSWER_HEADERS };
  if (socket.writable) {
    const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}`).join('\r\n');
    socket.write(`HTTP/1.1 ${apiError.status} ${http.STATUS_CODES[apiError.status]}\r\n${head}\r\n\r\n${body}`);
  }
  socket.destroy(err);
}
