import express, { Request, RequestHandler, Response, Router } from 'express';
import { ClientCredentialsGrant } from '../client-credentials-grant';
import { BadRequestError, PayloadTooLargeError } from '../../errors/domain-errors';
import { logUnexpected, oauthFailureOf } from '../../errors/error-lookup';
import { InvalidClientError, UnsupportedGrantTypeError } from '../oauth-errors';
import { Logger } from '../../observability/logger';
import { clientAddressKey } from '../../http/client-address';
import { awaitingContinue, sendContinue } from '../../http/expect-continue';
import { MethodNotAllowedError } from '../../http/http-errors';

export const TOKEN_PATH = '/oauth2/token';

export interface TokenRouteDeps {
  grant: ClientCredentialsGrant;
  bodyLimitBytes: number;
  logger: Logger;
}

/** A client authenticated by HTTP Basic or by form fields (RFC 6749 §2.3.1), never both. */
interface ClientAuth {
  clientId: string;
  clientSecret: string;
}

const REALM = 'Basic realm="verify-customer", charset="UTF-8"';
const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)/i;

/**
 * POST /oauth2/token: the built-in issuer's client credentials grant (CONTRACT §7). Every answer
 * is `no-store`; every failure is an RFC 6749 §5.2 error body, never the legacy shape and never 500
 * for anything a client sent.
 */
export function tokenRoute(deps: TokenRouteDeps): Router {
  const parse = express.urlencoded({ extended: false, limit: deps.bodyLimitBytes, parameterLimit: 16, type: () => true });
  const readForm = (req: Request, res: Response) => new Promise<void>((resolve, reject) => {
    parse(req, res, (err?: unknown) => (err ? reject(formError(err)) : resolve()));
  });

  const handler: RequestHandler = async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Pragma', 'no-cache');
    // Whether the client authenticated by form fields (client_secret_post): then a 401 carries no Basic challenge.
    let triedForm = false;
    try {
      if (req.method !== 'POST') {
        res.setHeader('Allow', 'POST');
        throw new MethodNotAllowedError('the token endpoint takes POST');
      }
      const contentType = req.headers['content-type'] ?? '';
      const mediaType = contentType.split(';', 1)[0]?.trim().toLowerCase();
      if (mediaType !== 'application/x-www-form-urlencoded') throw new BadRequestError('Content-Type must be application/x-www-form-urlencoded');
      // body-parser would also decode ISO-8859-1, so one secret would have two spellings; the
      // form is UTF-8 (RFC 6749 Appendix B) and any other charset is refused, as documented.
      const charset = CHARSET.exec(contentType)?.[1];
      if (charset !== undefined && charset.toLowerCase() !== 'utf-8') throw new BadRequestError('charset must be utf-8');
      // A client waiting for 100 Continue has sent no body: a declared size over the limit is
      // refused now, anything else is invited (Node's checkContinue leaves that to the app).
      if (awaitingContinue(req, res) && req.headers['content-encoding'] === undefined && Number(req.headers['content-length']) > deps.bodyLimitBytes) {
        throw new PayloadTooLargeError('body too large');
      }
      sendContinue(req, res);
      await readForm(req, res);
      const form = formFields(req.body);
      triedForm = req.headers.authorization === undefined && (form.has('client_id') || form.has('client_secret'));
      const auth = clientAuth(req.headers.authorization, form);
      const grantType = form.get('grant_type');
      if (grantType === undefined) throw new BadRequestError('grant_type is required');
      if (grantType !== 'client_credentials') throw new UnsupportedGrantTypeError('only client_credentials is supported');
      const issued = await deps.grant.issue({
        clientId: auth.clientId, clientSecret: auth.clientSecret, scope: form.get('scope'), address: clientAddressKey(req.ip),
      });
      res.locals.partner = issued.partner;
      res.locals.code = '00000';
      res.status(200).json({ access_token: issued.token, token_type: 'Bearer', expires_in: issued.expiresInS, scope: issued.scopes.join(' ') });
    } catch (err) {
      const failure = oauthFailureOf(err);
      if (failure.unexpected) logUnexpected(deps.logger, err, { correlator: res.locals.correlator }, 'token endpoint failed');
      // RFC 6749 §5.2: the challenge names the scheme the client used in Authorization. A client
      // that sent its secret as form fields used none: a Basic challenge would tell it to switch
      // (openid-client raises it as a challenge instead of invalid_client). A client that sent
      // no credentials at all is told which scheme to use (RFC 9110's 401).
      if (failure.status === 401 && !triedForm) res.setHeader('WWW-Authenticate', REALM);
      if (failure.retryAfterS !== undefined) res.setHeader('Retry-After', String(failure.retryAfterS));
      res.locals.code = failure.status >= 500 ? '9999' : '11111';
      res.status(failure.status).json({ error: failure.error, error_description: failure.description });
    }
  };
  const router = Router();
  router.all(TOKEN_PATH, handler);
  return router;
}

/** Form fields, each at most once (RFC 6749 §3.2: "parameters MUST NOT be included more than once"). */
function formFields(body: unknown): Map<string, string> {
  const fields = new Map<string, string>();
  if (typeof body !== 'object' || body === null) return fields;
  for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
    if (typeof value !== 'string') throw new BadRequestError(`parameter ${name.slice(0, 32)} is repeated`);
    // RFC 6749 §3.2: parameters sent without a value are treated as omitted.
    if (value !== '') fields.set(name, value);
  }
  return fields;
}

function clientAuth(authorization: string | undefined, form: Map<string, string>): ClientAuth {
  const formId = form.get('client_id');
  const formSecret = form.get('client_secret');
  if (authorization !== undefined) {
    if (formId !== undefined || formSecret !== undefined) throw new BadRequestError('use one client authentication method, not two');
    const m = /^basic +([A-Za-z0-9+/]+=*) *$/i.exec(authorization);
    if (!m) throw new InvalidClientError('Authorization must be HTTP Basic');
    const decoded = Buffer.from(m[1] ?? '', 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw new InvalidClientError('malformed Basic credentials');
    // RFC 6749 §2.3.1: id and secret are form-urlencoded before Basic encoding.
    return { clientId: formDecode(decoded.slice(0, colon)), clientSecret: formDecode(decoded.slice(colon + 1)) };
  }
  if (formId === undefined || formSecret === undefined) throw new InvalidClientError('client authentication required');
  return { clientId: formId, clientSecret: formSecret };
}

function formDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    throw new InvalidClientError('malformed Basic credentials');
  }
}

/** The body parser's failures: all the client's fault, each with the reason the caller is shown. */
function formError(err: unknown): Error {
  const type = (err as { type?: string }).type;
  const cause = { cause: err };
  if (type === 'entity.too.large') return new PayloadTooLargeError('body too large', undefined, cause);
  if (type === 'charset.unsupported') return new BadRequestError('charset must be utf-8', undefined, cause);
  if (type === 'parameters.too.many') return new BadRequestError('too many parameters', undefined, cause);
  const status = (err as { status?: number }).status;
  if (typeof status === 'number' && status >= 400 && status < 500) return new BadRequestError('body could not be read', undefined, cause);
  return err instanceof Error ? err : new Error('body could not be read', { cause: err });
}
