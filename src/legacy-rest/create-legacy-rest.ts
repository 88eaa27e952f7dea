import { AuditRecorder } from '../audit/audit-recorder';
import { ServerSettings } from '../config/server-settings';
import { Routes } from '../http/routes';
import { OffsetDateTimeFormatter } from '../kernel/offset-date-time';
import { Authenticator } from '../partners/authenticator';
import { MsisdnNormaliser } from '../kernel/msisdn';
import { VerificationService } from '../verification/verification-service';
import { verificationRoutes } from './verification-routes';

export interface LegacyRestDeps {
  service: VerificationService;
  authenticator: Authenticator;
  normalise: MsisdnNormaliser;
  formatDate: OffsetDateTimeFormatter;
  audit: AuditRecorder;
}

/** The two legacy REST routes (CONTRACT §2-3), signed requests; their failures in the legacy body. */
export function createLegacyRest(deps: LegacyRestDeps, config: Pick<ServerSettings, 'BODY_LIMIT_BYTES'>): { routes: Routes } {
  return { routes: [verificationRoutes({ ...deps, bodyLimitBytes: config.BODY_LIMIT_BYTES })] };
}
