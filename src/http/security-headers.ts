import { Response } from 'express';

/**
 * The security headers of every answer, fixed at start (docs/decisions.md, "Security headers").
 * This service answers JSON (and a YAML document, metrics text) to servers, never HTML to a
 * browser, so it sends what protects an API (OWASP REST Security Cheat Sheet) and none of
 * the headers that only steer how a browser treats a document (helmet's defaults). A route
 * may override one (the OpenAPI document is cacheable).
 */
const HEADERS: readonly (readonly [string, string])[] = Object.freeze([
  // KYC and SIM-swap answers are personal data: no proxy or client cache keeps them.
  ['Cache-Control', 'no-store'],
  // Nothing here may load anything or be framed, should a browser ever render an answer.
  ['Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'"],
  ['Cross-Origin-Resource-Policy', 'same-origin'],
  ['Referrer-Policy', 'no-referrer'],
  ['Strict-Transport-Security', 'max-age=31536000; includeSubDomains'],
  ['X-Content-Type-Options', 'nosniff'],
  ['X-Frame-Options', 'DENY'],
]);

/** Sets them on res (the app's entry middleware calls this for every request). */
export function setSecurityHeaders(res: Response): void {
  for (let i = 0; i < HEADERS.length; i++) res.setHeader(HEADERS[i][0], HEADERS[i][1]);
}
