// docs/architecture.md's module map, "May import" column, as eslint-plugin-boundaries rules: a
// file under src/ may import another folder only where its row says so. Each folder is one
// element; two files are elements of their own because the rest of the map treats them apart:
// the logger (every folder logs; it imports only kernel) and OAuth's ports (scopes, access-token
// port, OAuth errors: what the CAMARA APIs need of oauth/, without its issuer). A folder that is
// not a kit below is a feature (a CAMARA API), so a new API is checked without being listed.
import boundaries from 'eslint-plugin-boundaries';

const KITS = ['admin', 'admin-console', 'audit', 'camara', 'cli', 'config', 'errors', 'graphql', 'http',
  'kernel', 'legacy-rest', 'oauth', 'observability', 'ops', 'partners', 'simulator', 'subscriptions', 'verification'];

const elements = [
  { type: 'root', mode: 'full', pattern: ['src/main.ts', 'src/run-service.ts', 'src/server.ts'] },
  { type: 'logger', mode: 'full', pattern: 'src/observability/logger.ts' },
  { type: 'oauth-ports', mode: 'full', pattern: ['src/oauth/access-scopes.ts', 'src/oauth/oauth-errors.ts', 'src/oauth/ports/**'] },
  ...KITS.map((kit) => ({ type: kit, mode: 'full', pattern: `src/${kit}/**` })),
  { type: 'feature', mode: 'full', pattern: 'src/*/**', capture: ['name'] },
];

/** The "May import" column: each element and the elements it may import (besides itself). */
export const MAY_IMPORT = {
  feature: ['camara', 'verification', 'partners', 'oauth-ports', 'config', 'kernel', 'errors', 'logger'],
  camara: ['verification', 'partners', 'oauth-ports', 'audit', 'http', 'config', 'kernel', 'errors', 'logger'],
  subscriptions: ['camara', 'verification', 'partners', 'oauth-ports', 'http', 'config', 'kernel', 'errors', 'logger'],
  'legacy-rest': ['verification', 'partners', 'audit', 'http', 'config', 'kernel', 'errors', 'logger'],
  graphql: ['verification', 'partners', 'audit', 'http', 'config', 'kernel', 'errors', 'logger'],
  verification: ['partners', 'http', 'config', 'kernel', 'errors', 'logger'],
  oauth: ['oauth-ports', 'verification', 'partners', 'http', 'config', 'kernel', 'errors', 'logger'],
  'oauth-ports': ['partners', 'errors'],
  audit: ['partners', 'config', 'kernel', 'errors', 'logger'],
  partners: ['config', 'kernel', 'errors', 'logger'],
  admin: ['partners', 'audit', 'subscriptions', 'http', 'config', 'kernel', 'errors', 'logger'],
  'admin-console': ['kernel'],
  ops: ['verification', 'partners', 'http', 'config', 'kernel'],
  http: ['admin-console', 'partners', 'config', 'kernel', 'errors', 'logger'],
  observability: ['verification', 'partners', 'audit', 'subscriptions', 'config', 'kernel', 'logger'],
  logger: ['kernel'],
  cli: ['partners', 'audit', 'subscriptions', 'verification', 'config', 'kernel', 'errors', 'logger'],
  simulator: ['kernel'],
  config: ['kernel'],
  kernel: [],
  errors: [],
};

/** The column must stay a hierarchy: a cycle between two folders fails the lint at load. */
function assertNoCycle(graph) {
  const state = new Map();
  const visit = (node, path) => {
    if (state.get(node) === 'done') return;
    if (state.get(node) === 'open') throw new Error(`module-map.eslint.mjs: MAY_IMPORT has a cycle: ${[...path, node].join(' -> ')}`);
    state.set(node, 'open');
    for (const next of graph[node] ?? []) visit(next, [...path, node]);
    state.set(node, 'done');
  };
  for (const node of Object.keys(graph)) visit(node, []);
}
assertNoCycle(MAY_IMPORT);

/**
 * The admitted exceptions (docs/architecture.md, "Admitted exceptions"): one file each, to the
 * files it needs, so nothing else may follow the same path unnoticed.
 */
export const ADMITTED = [
  // Without HLR_URL/SIM_URL the upstreams are the simulator, in-process (the demo and the tests).
  { from: 'src/verification/upstream/create-upstreams.ts', to: ['src/simulator/fixtures.ts', 'src/simulator/simulator.ts'] },
];

const policies = [
  { from: { element: { type: 'root' } }, allow: { to: { element: { type: '*' } } } },
  // A folder's own files (a feature's: only its own folder).
  ...Object.keys(MAY_IMPORT).filter((type) => type !== 'feature')
    .map((type) => ({ from: { element: { type } }, allow: { to: { element: { type } } } })),
  { from: { element: { type: 'feature' } }, allow: { to: { element: { type: 'feature', captured: { name: '{{from.captured.name}}' } } } } },
  ...Object.entries(MAY_IMPORT).map(([from, to]) => ({
    from: { element: { type: from } },
    allow: { to: { element: { types: { anyOf: to } } } },
  })),
  ...ADMITTED.map(({ from, to }) => ({ from: { file: { path: from } }, allow: { to: { file: { path: to } } } })),
];

export default {
  files: ['src/**/*.ts'],
  plugins: { boundaries },
  settings: {
    'boundaries/elements': elements,
    'boundaries/include': ['src/**/*.ts'],
    'import/resolver': { node: { extensions: ['.ts', '.js'] } },
    // Version 7 deprecates `mode: 'full'` in favour of `partialMatch: false`, but the latter no
    // longer matches a single file (the logger, OAuth's ports), which `mode: 'full'` still does.
    'boundaries/legacy-warnings': false,
  },
  rules: {
    'boundaries/dependencies': ['error', {
      default: 'disallow',
      policies,
      message: '{{from.type}} may not import {{to.type}} (docs/architecture.md, module map: "May import")',
    }],
  },
};
