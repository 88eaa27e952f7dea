import { MissingIdentifierError, OutOfRangeError, ServiceNotApplicableError, UnnecessaryIdentifierError } from '../../src/camara/camara-errors';
import {
  BadRequestError, CallForwardingUnknownError, ConflictError, DomainError, ForbiddenError, NotSubscriberError, PayloadTooLargeError,
  RateLimitedError, UnauthenticatedError, UpstreamUnavailableError,
} from '../../src/errors/domain-errors';
import { camaraFailureOf } from '../../src/camara/error-info';
import { MethodNotAllowedError, RouteNotFoundError } from '../../src/http/http-errors';
import { NeverInDeviceError } from '../../src/device-swap/device-swap-errors';
import { CallForwardingListNotOfferedError } from '../../src/call-forwarding/call-forwarding-errors';
import { SubscriberStartUnknownError } from '../../src/number-recycling/number-recycling-errors';
import {
  IdDocumentMismatchError, IdDocumentRequiredError, InvalidParamCombinationError, InvalidTokenContextError,
} from '../../src/kyc-match/kyc-match-errors';

describe('CAMARA ErrorInfo mapping', () => {
  it.each<[DomainError, number, string]>([
    [new BadRequestError('bad'), 400, 'INVALID_ARGUMENT'],
    [new PayloadTooLargeError('body larger than 8192 bytes'), 400, 'INVALID_ARGUMENT'],
    [new OutOfRangeError('maxAge'), 400, 'OUT_OF_RANGE'],
    [new UnauthenticatedError('expired'), 401, 'UNAUTHENTICATED'],
    [new ForbiddenError('scope'), 403, 'PERMISSION_DENIED'],
    [new NotSubscriberError('no'), 404, 'IDENTIFIER_NOT_FOUND'],
    [new RouteNotFoundError('no route'), 404, 'NOT_FOUND'],
    [new MethodNotAllowedError('POST'), 405, 'METHOD_NOT_ALLOWED'],
    [new MissingIdentifierError('x'), 422, 'MISSING_IDENTIFIER'],
    [new UnnecessaryIdentifierError('x'), 422, 'UNNECESSARY_IDENTIFIER'],
    [new ServiceNotApplicableError('x'), 422, 'SERVICE_NOT_APPLICABLE'],
    [new RateLimitedError('slow', 3), 429, 'TOO_MANY_REQUESTS'],
    [new UpstreamUnavailableError('down', 10), 503, 'UNAVAILABLE'],
    [new ConflictError('txn'), 500, 'INTERNAL'],
    [new NeverInDeviceError('never in a device'), 422, 'SERVICE_NOT_APPLICABLE'],
    [new CallForwardingUnknownError('not reported'), 404, 'IDENTIFIER_NOT_FOUND'],
    [new CallForwardingListNotOfferedError('not offered'), 501, 'NOT_IMPLEMENTED'],
    [new SubscriberStartUnknownError('start unknown'), 422, 'SERVICE_NOT_APPLICABLE'],
    [new InvalidParamCombinationError('x'), 400, 'KNOW_YOUR_CUSTOMER.INVALID_PARAM_COMBINATION'],
    [new InvalidTokenContextError('x'), 403, 'INVALID_TOKEN_CONTEXT'],
    [new IdDocumentRequiredError('x'), 403, 'KNOW_YOUR_CUSTOMER.ID_DOCUMENT_REQUIRED'],
    [new IdDocumentMismatchError('x'), 403, 'KNOW_YOUR_CUSTOMER.ID_DOCUMENT_MISMATCH'],
  ])('%p → %i %s', (err, status, code) => {
    const f = camaraFailureOf(err);
    expect(f.info.status).toBe(status);
    expect(f.info.code).toBe(code);
    expect(f.info.message.length).toBeGreaterThan(0);
  });

  it('when the status is 429 or 503, then Retry-After is kept', () => {
    expect(camaraFailureOf(new RateLimitedError('slow', 3)).retryAfterS).toBe(3);
    expect(camaraFailureOf(new UpstreamUnavailableError('down', 10)).retryAfterS).toBe(10);
  });

  it('when the failure is unknown, then it shows as 500 INTERNAL with a fixed message, never its own text', () => {
    const f = camaraFailureOf(new Error('secret stack detail at /srv/app.js:12'));
    expect(f.info).toEqual({ status: 500, code: 'INTERNAL', message: expect.not.stringContaining('secret') as unknown });
  });
});
