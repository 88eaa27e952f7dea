import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { OPERATIONS as CONSOLE_OPERATIONS, OPERATION_LABELS } from '../../console/src/format';
import { OPERATIONS } from '../../src/partners/operation';

/*
 * The registry's operations come from the CAMARA declarations (src/partners/operation.ts); the
 * admin API's document and the console, each built on its own, name them too. A new API's
 * registry operation missing from either fails here, not in front of a partner manager.
 */

const ROOT = join(__dirname, '..', '..');

describe('the registry operations the admin API and the console know', () => {
  it('when the admin API document enumerates Operation, then it is exactly the registry operations', () => {
    const doc = load(readFileSync(join(ROOT, 'docs/openapi-admin.yaml'), 'utf8')) as { components: { schemas: { Operation: { enum: string[] } } } };
    expect([...doc.components.schemas.Operation.enum].sort()).toEqual([...OPERATIONS].sort());
  });

  it('when the console lists the operations a partner may have, then it lists every registry operation, each with a label', () => {
    expect([...CONSOLE_OPERATIONS].sort()).toEqual([...OPERATIONS].sort());
    for (const op of OPERATIONS) expect(`${op}: ${OPERATION_LABELS[op] ?? 'no label'}`).not.toMatch(/no label$/);
  });
});
