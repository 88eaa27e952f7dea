import { readdirSync } from 'node:fs';
import { APIS as KIT_APIS, NOT_OFFERED } from '../../conformance/support/camara-documents';
import { ALL_SCOPES, SCOPES } from '../../src/oauth/access-scopes';
import { DECLARED_APIS } from '../../src/partners/camara-apis';
import { OPERATIONS } from '../../src/partners/operation';
import { CAMARA_DIR } from '../support/camara-spec';

describe('the CAMARA API declarations', () => {
  it('when read, then each root starts with the API name and a version segment, and no root is declared twice', () => {
    for (const api of DECLARED_APIS) expect(api.root).toMatch(new RegExp(`^/${api.name}/v\\d+(\\.\\d+)?$`));
    expect(new Set(DECLARED_APIS.map((a) => a.root)).size).toBe(DECLARED_APIS.length);
  });

  it('when an operation names its scopes, then each is among its API\'s scopes, and a demo call names a declared operation', () => {
    for (const api of DECLARED_APIS) {
      for (const op of api.operations) for (const scope of op.scopes) expect(api.scopes).toContain(scope);
      if (api.demo !== undefined) expect(api.operations.map((o) => o.name)).toContain(api.demo.operation);
    }
  });

  it('when the token endpoint lists its scopes, then they are the declared ones, and every scope a service checks is among them', () => {
    expect([...ALL_SCOPES].sort()).toEqual([...new Set(DECLARED_APIS.flatMap((a) => a.scopes))].sort());
    for (const scope of Object.values(SCOPES)) expect(ALL_SCOPES).toContain(scope);
  });

  it('when the registry validates operations, then each declared registry operation is one', () => {
    for (const api of DECLARED_APIS) expect(OPERATIONS).toContain(api.registryOperation);
  });
});

describe('the conformance kit and the declarations', () => {
  it('when the kit lists the APIs it runs, then they are the declared versions: same roots, same titles and versions, none left out', () => {
    // The kit stays importable without src/ (an operator points it at any implementation), so
    // its list is its own; this holds it to ours, so a new declaration without its .feature fails here.
    const declared = DECLARED_APIS.map((a) => ({ title: `${a.title} ${a.version}`, root: a.root }));
    expect(KIT_APIS.map((a) => ({ title: a.title, root: a.root }))).toEqual(declared);
  });

  it('when the official folder is read, then every .feature in it is run by exactly one API, or listed as not offered', () => {
    const features = readdirSync(CAMARA_DIR).filter((f) => f.endsWith('.feature'));
    expect(features.length).toBeGreaterThan(0);
    for (const feature of features) {
      const claims = KIT_APIS.filter((a) => a.features.includes(feature)).length + NOT_OFFERED.filter((n) => n.feature === feature).length;
      expect(`${feature}: ${claims}`).toBe(`${feature}: 1`);
    }
    for (const api of KIT_APIS) for (const f of [api.yaml, ...api.features]) expect(readdirSync(CAMARA_DIR)).toContain(f);
  });
});
