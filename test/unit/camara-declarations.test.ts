import { ALL_SCOPES, SCOPES } from '../../src/oauth/access-scopes';
import { DECLARED_APIS } from '../../src/partners/camara-apis';
import { OPERATIONS } from '../../src/partners/operation';

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
