import { DECLARED_APIS } from '../partners/camara-apis';
import { Operation } from '../partners/operation';
import { AuditInterface } from './ports/audit-trail';

/*
 * One naming of the `operation` of an audit record, and so of a usage row, for every interface
 * (docs/audit.md, "Operation names"): the registry operation the call spends (the permission,
 * the rate limit, what a partner is billed under) comes first, so a report can always be summed
 * per registry operation; a CAMARA call adds, after a dot, the CAMARA operation that answered
 * (the last segment of its route), so the operations of one API can be told apart. The legacy
 * REST operations and the GraphQL lookups are the registry operations themselves and carry no
 * suffix: `kyc`, `sim_swap`, `sim_swap.check`, `device_swap.retrieve-date`, `kyc.check-tenure`.
 */

/** `registry` alone, or `registry.camaraOperation` for a CAMARA call. */
export function auditOperation(registry: Operation, camaraOperation?: string): string {
  return camaraOperation === undefined ? registry : `${registry}.${camaraOperation}`;
}

/** The name of every CAMARA operation the declarations list, as its records carry it (the subscriptions API is not audited per call). */
export const CAMARA_AUDIT_OPERATIONS: readonly string[] = DECLARED_APIS.filter((api) => api.name !== 'sim-swap-subscriptions')
  .flatMap((api) => api.operations.map((op) => auditOperation(api.registryOperation, op.name)));

/**
 * What earlier versions wrote for CAMARA calls: SIM Swap and KYC Tenure named the CAMARA
 * operation alone, KYC Match and Number Recycling the registry operation alone (each has one
 * operation, so the full name is known). Device Swap and Call Forwarding Signal wrote the
 * registry operation for both of their operations; which one answered was not recorded, so
 * those records keep the registry operation, still the right prefix for a sum.
 */
const FORMER_CAMARA_NAMES: ReadonlyMap<string, string> = new Map([
  ['check', auditOperation('sim_swap', 'check')],
  ['retrieve-date', auditOperation('sim_swap', 'retrieve-date')],
  ['check-tenure', auditOperation('kyc', 'check-tenure')],
  ['kyc_match', auditOperation('kyc_match', 'match')],
  ['number_recycling', auditOperation('number_recycling', 'check')],
]);

/** A stored record's operation under today's naming: readers map records written before it. */
export function currentOperationName(iface: AuditInterface, stored: string): string {
  return iface === 'camara' ? FORMER_CAMARA_NAMES.get(stored) ?? stored : stored;
}
