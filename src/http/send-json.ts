import { Response } from 'express';

/**
 * Every interface's JSON answer (legacy REST, CAMARA, subscriptions), so it lives in the shared
 * http kit rather than in one feature.
 *
 * What res.status(status).json(body) sends (same Content-Type, Content-Length, body), in one
 * step: it skips Express's per-call setting lookups, charset rewriting and freshness check,
 * which a POST answer never needs.
 */
export function sendJson(res: Response, status: number, body: object): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}
