import { AuditRecorder } from '../audit/audit-recorder';
import { Config } from '../config/config';
import { Clock } from '../kernel/clock';
import { AccessTokenVerifier } from '../oauth/ports/access-tokens';
import { Logger } from '../observability/logger';
import { VerificationService } from '../verification/verification-service';
import { CamaraGate } from './camara-gate';

/** What every signal API's factory (createDeviceSwapApi, …) is built from: the shared core and adapters. */
export interface CamaraApiDeps {
  verification: Pick<VerificationService, 'admit' | 'hlrFactsComplete'>;
  audit: AuditRecorder;
  tokens: AccessTokenVerifier;
  clock: Clock;
  logger: Logger;
}

/** The settings every signal API reads. */
export type CamaraApiConfig = Pick<Config, 'COUNTRY_CODE' | 'NSN_LENGTH' | 'TIMEZONE' | 'BODY_LIMIT_BYTES'>;

/** The gate of one API: scope, identifier, number plan, admission and audit over the shared core. */
export function camaraGateOf(deps: CamaraApiDeps, config: CamaraApiConfig): CamaraGate {
  return new CamaraGate({
    admit: (partner, operations) => deps.verification.admit(partner, operations),
    audit: deps.audit,
    plan: { countryCode: config.COUNTRY_CODE, nsnLength: config.NSN_LENGTH },
  });
}
