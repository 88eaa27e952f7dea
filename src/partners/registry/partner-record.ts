import { randomBytes } from 'node:crypto';
import { Operation } from '../operation';
import { Partner, PartnerKind, PartnerSecret, SignatureScheme } from '../partners';
import { PartnerView } from '../ports/partner-admin';
import { RateLimit } from '../partners';

/**
 * A partner as both registry stores hold it (PostgreSQL rows, PARTNERS_FILE entries): every
 * field, and its secrets with their values. Only the stores and the runtime registry see one;
 * the management plane sees PartnerView.
 */
export interface SecretRecord {
  id: string;
  secret: string;
  /** File store only: the value came from this environment variable and is written back as it. */
  secretEnv?: string;
  createdAt: string;
  validUntil: string | null;
}

export interface PartnerRecord {
  name: string;
  kind: PartnerKind;
  apiKey: string;
  operations: Operation[];
  enabled: boolean;
  signature: SignatureScheme;
  rateLimit: RateLimit | null;
  purpose: string | null;
  /** Newest first; expired ones are dropped when the record is next written. */
  secrets: SecretRecord[];
}

export function secretRecordValidAt(s: SecretRecord, nowMs: number): boolean {
  return s.validUntil === null || nowMs < Date.parse(s.validUntil);
}

/** The runtime partner the request path authenticates against. */
export function partnerOf(r: PartnerRecord): Partner {
  const secrets: PartnerSecret[] = r.secrets.map((s) => ({
    id: s.id, secret: s.secret, createdAtMs: Date.parse(s.createdAt), validUntilMs: s.validUntil === null ? null : Date.parse(s.validUntil),
  }));
  const p: Partner = {
    name: r.name, apiKey: r.apiKey, secret: secrets[0]?.secret ?? '', secrets,
    operations: new Set(r.operations), enabled: r.enabled, signature: r.signature,
  };
  if (r.kind === 'internal') p.kind = 'internal';
  if (r.rateLimit) p.rateLimit = r.rateLimit;
  if (r.purpose !== null) p.purpose = r.purpose;
  return p;
}

/** The record of a runtime partner (the file store reads through the file's own parser). */
export function recordOf(p: Partner): PartnerRecord {
  return {
    name: p.name, kind: p.kind ?? 'partner', apiKey: p.apiKey, operations: [...p.operations], enabled: p.enabled,
    signature: p.signature, rateLimit: p.rateLimit ?? null, purpose: p.purpose ?? null,
    secrets: (p.secrets ?? []).map((s) => ({
      id: s.id, secret: s.secret, createdAt: new Date(s.createdAtMs).toISOString(),
      validUntil: s.validUntilMs === null ? null : new Date(s.validUntilMs).toISOString(),
    })),
  };
}

/** What the management plane may see: the valid secrets' ids and dates, never a value. */
export function viewOf(r: PartnerRecord, nowMs: number): PartnerView {
  return {
    name: r.name, kind: r.kind, apiKey: r.apiKey, operations: [...r.operations], enabled: r.enabled, signature: r.signature,
    rateLimit: r.rateLimit, purpose: r.purpose,
    secrets: r.secrets.filter((s) => secretRecordValidAt(s, nowMs)).map((s) => ({ id: s.id, createdAt: s.createdAt, validUntil: s.validUntil })),
  };
}

/** A change log side (before or after): the view's fields, every secret's id and dates, no value. */
export function snapshotOf(r: PartnerRecord | undefined): Record<string, unknown> | null {
  if (!r) return null;
  const { secrets, ...fields } = r;
  return { ...fields, operations: [...r.operations], secrets: secrets.map((s) => ({ id: s.id, createdAt: s.createdAt, validUntil: s.validUntil })) };
}

/** 32 random bytes as hex: what `partners add` has always handed out. */
export function newSecretValue(): string {
  return randomBytes(32).toString('hex');
}

export function newSecretId(): string {
  return `sec_${randomBytes(9).toString('base64url')}`;
}

/** The name made URL-safe, then random, as `partners add` has always made them. */
export function newApiKey(name: string): string {
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'partner';
  return `${slug}-${randomBytes(6).toString('hex')}`;
}
