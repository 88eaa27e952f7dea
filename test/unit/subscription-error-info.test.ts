import {
  InvalidCredentialError, InvalidProtocolError, InvalidSinkError, InvalidTokenTypeError, SubscriptionNotFoundError,
} from '../../src/subscriptions/domain/subscription-errors';
import { camaraFailureOf } from '../../src/camara/error-info';

describe('subscription conditions as ErrorInfo (sim-swap-subscriptions.yaml)', () => {
  test.each([
    [new InvalidProtocolError('Only HTTP is supported'), 400, 'INVALID_PROTOCOL'],
    [new InvalidCredentialError('no'), 400, 'INVALID_CREDENTIAL'],
    [new InvalidTokenTypeError('Only bearer token is supported'), 400, 'INVALID_TOKEN'],
    [new InvalidSinkError('private'), 400, 'INVALID_SINK'],
    [new SubscriptionNotFoundError('The specified resource is not found.'), 404, 'NOT_FOUND'],
  ])('%s → %i %s', (err, status, code) => {
    expect(camaraFailureOf(err).info).toEqual({ status, code, message: err.reason });
  });
});
