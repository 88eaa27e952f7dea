import { AuditRecorder } from '../audit/audit-recorder';
import { ServerSettings } from '../config/server-settings';
import { VerificationSettings } from '../config/verification-settings';
import { Routes } from '../http/routes';
import { Clock } from '../kernel/clock';
import { OffsetDateTimeFormatter } from '../kernel/offset-date-time';
import { createZonedCalendar } from '../kernel/zoned-date';
import { AccessTokenVerifier } from '../oauth/ports/access-tokens';
import { Logger } from '../observability/logger';
import { VerificationService } from '../verification/verification-service';
import { camaraRoutes } from './camara-routes';
import { CamaraService } from './camara-service';

export interface CamaraDeps {
  verification: VerificationService;
  formatDate: OffsetDateTimeFormatter;
  audit: AuditRecorder;
  tokens: AccessTokenVerifier;
  clock: Clock;
  logger: Logger;
}

export interface Camara {
  service: CamaraService;
  routes: Routes;
}

type Settings = Pick<VerificationSettings, 'COUNTRY_CODE' | 'NSN_LENGTH' | 'TIMEZONE' | 'SIM_SWAP_MONITORED_DAYS'> & Pick<ServerSettings, 'BODY_LIMIT_BYTES'>;

/** The CAMARA operations (CONTRACT §7) behind OAuth 2.0 bearer tokens. */
export function createCamara(deps: CamaraDeps, config: Settings): Camara {
  const service = new CamaraService({
    verification: deps.verification, clock: deps.clock, audit: deps.audit,
    settings: {
      plan: { countryCode: config.COUNTRY_CODE, nsnLength: config.NSN_LENGTH },
      calendar: createZonedCalendar(config.TIMEZONE),
      ...(config.SIM_SWAP_MONITORED_DAYS === undefined ? {} : { monitoredDays: config.SIM_SWAP_MONITORED_DAYS }),
    },
  });
  return {
    service,
    routes: camaraRoutes({ camara: service, tokens: deps.tokens, formatDate: deps.formatDate, bodyLimitBytes: config.BODY_LIMIT_BYTES, logger: deps.logger }),
  };
}
