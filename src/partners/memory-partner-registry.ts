import { Partner, PartnerRegistry } from './partners';

/**
 * The registry the request path reads: plain maps swapped whole by replace(), so find() stays a
 * synchronous map lookup whatever store the partners come from (a file, PostgreSQL) and a
 * reader sees the old set or the new one, never a mix.
 */
export class MemoryPartnerRegistry implements PartnerRegistry {
  private byKey = new Map<string, Partner>();
  private list: readonly Partner[] = [];

  constructor(partners: readonly Partner[] = []) {
    this.replace(partners);
  }

  replace(partners: readonly Partner[]): void {
    this.byKey = new Map(partners.map((p) => [p.apiKey, p]));
    this.list = partners;
  }

  find(apiKey: string): Partner | undefined {
    return this.byKey.get(apiKey);
  }

  all(): readonly Partner[] {
    return this.list;
  }
}
