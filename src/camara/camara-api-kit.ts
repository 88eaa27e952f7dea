import { CamaraCallDeps } from './camara-call';
import { CamaraRouterDeps, CamaraRoutes } from './camara-router';
import { AuditRecorder } from '../audit/audit-recorder';
import { Config } from '../config/config';
import { Clock } from '../kernel/clock';
import { AccessTokenVerifier } from '../oauth/ports/access-tokens';
import { Logger } from '../observability/logger';
import { VerificationService } from '../verification/verification-service';

/** What the composition root hands every CAMARA API factory (`createSimSwapApi`, `createKycTenureApi`, …). */
export interface CamaraApiDeps {
  verification: VerificationService;
  audit: AuditRecorder;
  /** Verifies `Authorization: Bearer` access tokens (built-in and external issuer). */
  tokens: AccessTokenVerifier;
  clock: Clock;
  logger: Logger;
}

/** The settings every CAMARA API reads; an API's own config type adds its own keys to these. */
export type CamaraApiConfig = Pick<Config, 'COUNTRY_CODE' | 'NSN_LENGTH' | 'BODY_LIMIT_BYTES'>;

export interface CamaraKit {
  /** For the API's service: `camaraCaller(kit.call, name)`, whose calls resolve the number, admit and audit. */
  call: CamaraCallDeps;
  /** For the API's routes: `camaraRouter(kit.routes, root, { operation: answer, … })`. */
  routes: CamaraRouterDeps;
}

/** The shared CAMARA kit of one API, in one call: subject and audit rules for its service, token and ErrorInfo rules for its routes. */
export function camaraKit(deps: CamaraApiDeps, config: CamaraApiConfig): CamaraKit {
  return {
    call: {
      admit: (partner, operations) => deps.verification.admit(partner, operations),
      audit: deps.audit,
      plan: { countryCode: config.COUNTRY_CODE, nsnLength: config.NSN_LENGTH },
    },
    routes: { tokens: deps.tokens, logger: deps.logger, bodyLimitBytes: config.BODY_LIMIT_BYTES },
  };
}

/** What every CAMARA API factory returns: its routes, mounted as one (`app.use(...api.routes)`), and its service. */
export interface CamaraApi<Service> {
  routes: CamaraRoutes;
  service: Service;
}
