import http from 'node:http';
import { AddressInfo } from 'node:net';
import express, { ErrorRequestHandler, Express, RequestHandler } from 'express';
import { GraphQLError } from 'graphql';
import { ConflictError, DomainError, UpstreamUnavailableError } from '../../src/errors/domain-errors';
import { ErrorKind } from '../../src/errors/error-catalog';
import { camaraErrorHandler } from '../../src/camara/camara-error-handler';
import { errorMiddleware } from '../../src/http/error-middleware';
import { graphqlRefusal } from '../../src/graphql/request-guards';
import { responsePlugin } from '../../src/graphql/graphql-errors';
import { tokenRoute } from '../../src/oauth/routes/token-route';
import { ClientCredentialsGrant } from '../../src/oauth/client-credentials-grant';
import { Logger } from '../../src/observability/logger';
import { CapturedLogs, captureLogs } from '../support/log-capture';

/*
 * A failure the error catalog does not know is a bug of ours: every interface answers it 500
 * in its own shape, shows nothing of it, and logs it once with its cause for the operator.
 */

const CAUSE = 'connect ECONNREFUSED 10.0.0.9:5432';

/** A failure of something we call, wrapped as code that forgot to map it would wrap it. */
function unknownFailure(): Error {
  return new Error('pool exhausted', { cause: new Error(CAUSE) });
}

/** A domain error whose class names a row the catalog lacks (only a cast can do that). */
class RowlessError extends DomainError {
  readonly kind = 'NO_SUCH_ROW' as string as ErrorKind;
}

function rowless(): Error {
  return new RowlessError('pool exhausted', undefined, { cause: new Error(CAUSE) });
}

async function serve(app: Express): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer(app).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => { server.close(() => r()); }) };
}

/** One app, one route that fails with `err`, then the interface's error handler. */
async function answerOf(err: () => Error, handler: (logger: Logger) => ErrorRequestHandler, iface?: string) {
  const logs = captureLogs('info');
  const app = express();
  const fail: RequestHandler = (_req, res) => {
    if (iface) res.locals.interface = iface;
    res.locals.correlator = 'c-unexpected';
    throw err();
  };
  app.post('/op', fail);
  app.use(handler(logs.logger));
  return call(app, logs, { method: 'POST' });
}

async function call(app: Express, logs: CapturedLogs, init: RequestInit, path = '/op') {
  const server = await serve(app);
  try {
    const res = await fetch(server.url + path, init);
    return { status: res.status, text: await res.text(), logs };
  } finally {
    await server.close();
  }
}

/** The token endpoint of a client whose grant fails with `err`. */
async function tokenAnswerOf(err: () => Error) {
  const logs = captureLogs('info');
  const grant = { issue: () => Promise.reject(err()) } as unknown as ClientCredentialsGrant;
  const app = express();
  app.use(tokenRoute({ grant, bodyLimitBytes: 1024, logger: logs.logger }));
  return call(app, logs, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials&client_id=p1&client_secret=s1',
  }, '/oauth2/token');
}

/** Exactly one error line, carrying the failure and its cause. */
function expectLoggedOnceWithCause(logs: CapturedLogs): void {
  const errors = logs.lines().filter((l) => l.level === 'error');
  expect(errors).toHaveLength(1);
  expect(errors[0]?.err).toMatchObject({ message: 'pool exhausted', cause: { message: expect.stringContaining('ECONNREFUSED') as unknown } });
}

function expectNothingShown(text: string): void {
  expect(text).not.toMatch(/pool exhausted|ECONNREFUSED|10\.0\.0\.9|at .*\.ts/);
}

describe.each([['an unknown error', unknownFailure], ['a domain error without a row', rowless]])('when %s reaches', (_name, err) => {
  it('the legacy REST middleware, then it answers 500 9999 and logs it once with its cause', async () => {
    const r = await answerOf(err, errorMiddleware);
    expect(r.status).toBe(500);
    expect(JSON.parse(r.text)).toEqual({ code: '9999', desc: 'Unexpected system Error' });
    expectNothingShown(r.text);
    expectLoggedOnceWithCause(r.logs);
  });

  it('the CAMARA handler, then it answers 500 INTERNAL and logs it once with its cause', async () => {
    const r = await answerOf(err, (logger) => camaraErrorHandler(logger), 'camara');
    expect(r.status).toBe(500);
    expect(JSON.parse(r.text)).toEqual({ status: 500, code: 'INTERNAL', message: 'Unknown server error. Typically a server bug.' });
    expectNothingShown(r.text);
    expectLoggedOnceWithCause(r.logs);
  });

  it('the GraphQL refusal before Apollo, then it answers 500 with a bare 9999 and logs it once with its cause', async () => {
    const r = await answerOf(err, graphqlRefusal);
    expect(r.status).toBe(500);
    expect(JSON.parse(r.text)).toEqual({ errors: [{ message: 'Unexpected system Error', extensions: { code: '9999', desc: 'Unexpected system Error' } }] });
    expectNothingShown(r.text);
    expectLoggedOnceWithCause(r.logs);
  });

  it('the token endpoint, then it answers 500 server_error and logs it once with its cause', async () => {
    const r = await tokenAnswerOf(err);
    expect(r.status).toBe(500);
    expect(JSON.parse(r.text)).toEqual({ error: 'server_error', error_description: 'unexpected error' });
    expectNothingShown(r.text);
    expectLoggedOnceWithCause(r.logs);
  });

  it('a GraphQL resolver, then the response plugin logs it once with its cause', async () => {
    const logs = captureLogs('info');
    const hooks = await responsePlugin(logs.logger).requestDidStart!({} as never);
    const located = new GraphQLError('pool exhausted', { originalError: err(), path: ['kyc'] });
    const contextValue = { res: { locals: { correlator: 'c-1' } }, replayed: false };
    await hooks!.didEncounterErrors!({ errors: [located], contextValue } as never);
    expectLoggedOnceWithCause(logs);
  });
});

describe('when a known condition reaches an interface whose column its row leaves empty', () => {
  it('then CAMARA answers 500 INTERNAL and logs it, never a guessed 400', async () => {
    const r = await answerOf(() => new ConflictError('txn_id in flight', undefined, { cause: unknownFailure() }), (l) => camaraErrorHandler(l), 'camara');
    expect(r.status).toBe(500);
    expect(JSON.parse(r.text)).toMatchObject({ status: 500, code: 'INTERNAL' });
    expect(r.logs.lines().filter((l) => l.level === 'error')).toHaveLength(1);
  });

  it('then the token endpoint answers 500 server_error and logs it', async () => {
    const r = await tokenAnswerOf(() => new UpstreamUnavailableError('rate limiter unavailable', 1, { cause: unknownFailure() }));
    expect(r.status).toBe(500);
    expect(JSON.parse(r.text)).toEqual({ error: 'server_error', error_description: 'unexpected error' });
    expect(r.logs.lines().filter((l) => l.level === 'error')).toHaveLength(1);
  });
});
