import { IncomingMessage, ServerResponse } from 'node:http';

/**
 * `Expect: 100-continue` (RFC 9110 §10.1.1). The server's checkContinue listener (server.ts)
 * hands such requests to the app without answering 100, so a request that will be refused
 * (401, 403 route, wrong content type, a declared body over the limit) gets its final answer
 * without inviting a body; Node then closes the connection behind it. The body parser calls
 * sendContinue just before it reads, that is after authentication and every check that does
 * not need the body.
 */

const CONTINUE = /(?:^|\W)100-continue(?:$|\W)/i; // as Node's own test of the header
const continued = new WeakSet<ServerResponse>();

/** True while the client waits for 100 Continue before sending its body. */
export function awaitingContinue(req: IncomingMessage, res: ServerResponse): boolean {
  const expect = req.headers.expect;
  return expect !== undefined && CONTINUE.test(expect) && !continued.has(res);
}

/** Invites the body, once, when the client is waiting for the invitation. */
export function sendContinue(req: IncomingMessage, res: ServerResponse): void {
  if (!awaitingContinue(req, res)) return;
  continued.add(res);
  res.writeContinue();
}
