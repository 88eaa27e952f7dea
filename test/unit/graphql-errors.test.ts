import { ApolloServerErrorCode } from '@apollo/server/errors';
import { GraphQLError, locatedError } from 'graphql';
import { BadRequestError, NotSubscriberError, RateLimitedError, UpstreamUnavailableError } from '../../src/errors/domain-errors';
import { formatGraphqlError, responseCode, validateArgument } from '../../src/graphql/graphql-errors';

const formatted = (err: GraphQLError) => ({ ...err.toJSON(), extensions: { ...err.extensions, stacktrace: ['at secret.ts:1'] } });

describe('formatGraphqlError', () => {
  it('when the error is a domain error, then it shows as its REST code and desc, keeping path and locations', () => {
    const err = locatedError(new NotSubscriberError('msisdn is not a subscriber'), [], ['simSwap']);
    expect(formatGraphqlError(formatted(err), err)).toEqual({
      message: 'Error Process: msisdn is not a subscriber',
      extensions: { code: '11111', desc: 'Error Process: msisdn is not a subscriber' },
      path: ['simSwap'],
    });
  });

  it('when an upstream fails, then it shows as 9999', () => {
    const err = locatedError(new UpstreamUnavailableError('HLR unavailable', 5), [], ['kyc']);
    expect(formatGraphqlError(formatted(err), err).extensions).toEqual({ code: '9999', desc: 'Unexpected system Error: HLR unavailable' });
  });

  it('when the error is unexpected, then it shows as a bare 9999: no message, no stack trace', () => {
    const err = locatedError(new TypeError('cannot read secret of undefined'), [], ['kyc']);
    const out = formatGraphqlError(formatted(err), err);
    expect(out).toEqual({ message: 'Unexpected system Error', extensions: { code: '9999', desc: 'Unexpected system Error' }, path: ['kyc'] });
    expect(JSON.stringify(out)).not.toMatch(/secret|stacktrace/);
  });

  it('when parsing or validation fails, then it shows as 11111 with its message', () => {
    const err = new GraphQLError('Syntax Error: Expected Name, found <EOF>.', { extensions: { code: ApolloServerErrorCode.GRAPHQL_PARSE_FAILED } });
    expect(formatGraphqlError(formatted(err), err)).toEqual({
      message: 'Error Process: Syntax Error: Expected Name, found <EOF>.',
      extensions: { code: '11111', desc: 'Error Process: Syntax Error: Expected Name, found <EOF>.' },
    });
  });
});

describe('validateArgument', () => {
  it('when an argument is invalid, then the GraphQL argument is named in place of the REST field', () => {
    expect(() => validateArgument('txnId', 'txn_id', () => { throw new BadRequestError('txn_id must be a string'); }))
      .toThrow(new BadRequestError('txnId must be a string'));
  });

  it('when the error is of another kind, then it is left alone', () => {
    const limited = new RateLimitedError('rate limit exceeded', 1);
    expect(() => validateArgument('txnId', 'txn_id', () => { throw limited; })).toThrow(limited);
    expect(validateArgument('txnId', 'txn_id', () => 'ok')).toBe('ok');
  });
});

describe('responseCode', () => {
  it('when there is no error, then 00000; when any error is a 9999, then 9999; else 11111', () => {
    expect(responseCode(undefined)).toBe('00000');
    expect(responseCode([{ message: 'a', extensions: { code: '11111' } }])).toBe('11111');
    expect(responseCode([{ message: 'a', extensions: { code: '11111' } }, { message: 'b', extensions: { code: '9999' } }])).toBe('9999');
  });
});
