import { randomUUID } from 'node:crypto';
import { Actor, ChangeAction, ChangeEntry } from '../ports/partner-admin';
import { PartnerRecord, snapshotOf } from './partner-record';

/** One change log entry: the partner's fields before and after, secret ids and dates only. */
export function changeEntry(actor: Actor, action: ChangeAction, before: PartnerRecord | undefined, after: PartnerRecord | undefined, nowMs: number): ChangeEntry {
  return {
    id: randomUUID(), at: new Date(nowMs).toISOString(), actor: { type: actor.type, name: actor.name }, action,
    partner: (after ?? before)?.name ?? '', before: snapshotOf(before), after: snapshotOf(after),
  };
}

export const MAX_CHANGES_PAGE = 500;

/** A page size the stores accept: 1 to MAX_CHANGES_PAGE. */
export function pageLimit(limit: number): number {
  return Number.isInteger(limit) && limit > 0 ? Math.min(limit, MAX_CHANGES_PAGE) : 50;
}
