import { captureLogs } from '../support/log-capture';
import { runWithLogContext } from '../../src/observability/logger';

describe('error lines', () => {
  it('when an error with a cause chain is logged, then each level shows its type, message and code', () => {
    const logs = captureLogs('info');
    const root = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    const mid = Object.assign(new Error('hlr unreachable', { cause: root }), { config: { url: '/subscribers/255712000001' } });
    logs.logger.warn({ err: new Error('verification failed', { cause: mid }) }, 'boom');
    const err = logs.lines()[0]?.err as Record<string, unknown>;
    expect(err).toMatchObject({ type: 'Error', message: 'verification failed', cause: { message: 'hlr unreachable', cause: { code: 'ECONNREFUSED' } } });
    // Only type, message, code, stack and cause: an axios error's config holds the URL with the msisdn.
    expect(Object.keys((err.cause as object)).sort()).toEqual(['cause', 'message', 'stack', 'type']);
    expect(logs.raw().join('')).not.toMatch(/255712000001/);
  });

  it('when an error text holds a long number, then the number is masked', () => {
    const logs = captureLogs('info');
    logs.logger.error({ err: new Error('no record for vc:kyc:255712000001') }, 'boom');
    expect((logs.lines()[0]?.err as { message: string }).message).toBe('no record for vc:kyc:2557*****001');
  });

  it('when a line is logged inside a request\'s context, then it carries the correlator; a field given by the call wins', () => {
    const logs = captureLogs('info');
    runWithLogContext({ correlator: 'c-1' }, () => {
      logs.logger.info('inside');
      logs.logger.info({ correlator: 'explicit' }, 'given');
    });
    logs.logger.info('outside');
    expect(logs.lines().map((l) => [l.msg, l.correlator])).toEqual([['inside', 'c-1'], ['given', 'explicit'], ['outside', undefined]]);
    expect(logs.raw()[1]?.match(/"correlator"/g)).toHaveLength(1);
  });
});
