import { captureLogs } from '../support/log-capture';
import { runWithLogContext } from '../../src/observability/logger';

describe('log lines and the request context', () => {
  it('when a line outside any request carries a field, then later lines do not carry it', () => {
    const logs = captureLogs('info');
    logs.logger.info({ simulatorUrl: 'http://127.0.0.1:1' }, 'first');
    logs.logger.info('second');
    expect(logs.lines()[1]).not.toHaveProperty('simulatorUrl');
  });

  it('when a line inside a request carries a field, then the request\'s later lines carry the correlator but not that field', () => {
    const logs = captureLogs('info');
    runWithLogContext({ correlator: 'c-1' }, () => {
      logs.logger.warn({ upstream: 'hlr' }, 'first');
      logs.logger.info('second');
    });
    expect(logs.lines()[0]).toMatchObject({ correlator: 'c-1', upstream: 'hlr' });
    expect(logs.lines()[1]).toMatchObject({ correlator: 'c-1' });
    expect(logs.lines()[1]).not.toHaveProperty('upstream');
  });
});
