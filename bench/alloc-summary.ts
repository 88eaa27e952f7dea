import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ALLOC_INDEX, AllocWindow, HeapProfile, HeapProfileNode, SAMPLING_INTERVAL } from './alloc-profile';
import { areaOf } from './profile-summary';

type CallFrame = HeapProfileNode['callFrame'];

/** A frame's area, as the CPU summary names it, except that our code is grouped by folder (src/verification/state/). */
export function allocAreaOf(frame: Pick<CallFrame, 'url' | 'functionName'>): string {
  const area = areaOf(frame.url, frame.functionName);
  return area.startsWith('src/') ? `${dirname(area)}/` : area;
}

const maps = new Map<string, SourceMap | undefined>();

/** The built file's source map, when it sits beside it (npm run build writes them). */
function sourceMapOf(path: string): SourceMap | undefined {
  if (!maps.has(path)) {
    let map: SourceMap | undefined;
    try {
      if (existsSync(`${path}.map`)) map = new SourceMap(JSON.parse(readFileSync(`${path}.map`, 'utf8')) as ConstructorParameters<typeof SourceMap>[0]);
    } catch {
      map = undefined; // an unreadable map: the built line is still right
    }
    maps.set(path, map);
  }
  return maps.get(path);
}

/**
 * Where a function is: our built dist/src/x.js as src/x.ts at its TypeScript line (through the
 * source map; src/x.js and the built line without one), a package as the path inside it, Node's own as node:...;
 * empty for a V8 pseudo-frame.
 */
export function siteOf(frame: CallFrame): string {
  const { url, lineNumber, columnNumber } = frame;
  // No script: a V8 pseudo-frame such as (V8 API), or a builtin (Map, an iterator's next) the CPU summary calls (native).
  if (url === '') return frame.functionName.startsWith('(') ? '' : '(native)';
  const ours = /\/dist\/(src\/.*\.js)$/.exec(url);
  if (ours) {
    const map = url.startsWith('file:') || url.startsWith('/') ? sourceMapOf(url.startsWith('file:') ? fileURLToPath(url) : url) : undefined;
    const entry = map?.findEntry(lineNumber, columnNumber);
    if (entry && 'originalSource' in entry) {
      const src = /(?:^|\/)(src\/.*)$/.exec(entry.originalSource)?.[1];
      if (src) return `${src}:${entry.originalLine + 1}`;
    }
    return `${ours[1]}:${lineNumber + 1}`;
  }
  // The last node_modules/ is the package the code belongs to (a nested copy is its own package).
  const pkg = /.*node_modules\/(.*)$/.exec(url);
  return `${pkg ? pkg[1] : url}:${lineNumber + 1}`;
}

const KiB = 1024;
const bytes = (n: number) => (n >= 100 * KiB * KiB ? `${(n / KiB / KiB).toFixed(0)} MiB` : n >= KiB * KiB ? `${(n / KiB / KiB).toFixed(1)} MiB` : `${(n / KiB).toFixed(1)} KiB`);
const pct = (part: number, total: number) => `${((100 * part) / total).toFixed(1).padStart(5)}%`;

/** Bytes per allocation site and per area, self and with the area anywhere on the stack; the sum of them all. */
interface Tally { total: number; selfFn: Map<string, number>; selfArea: Map<string, number>; inclArea: Map<string, number> }

function tally(profiles: HeapProfile[]): Tally {
  const t: Tally = { total: 0, selfFn: new Map(), selfArea: new Map(), inclArea: new Map() };
  const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
  const onStack = new Map<string, number>();
  const walk = (node: HeapProfileNode) => {
    const area = allocAreaOf(node.callFrame);
    onStack.set(area, (onStack.get(area) ?? 0) + 1);
    if (node.selfSize > 0) {
      t.total += node.selfSize;
      const site = siteOf(node.callFrame);
      add(t.selfFn, `${node.callFrame.functionName || '(anonymous)'}${site ? ` ${site}` : ''}`, node.selfSize);
      add(t.selfArea, area, node.selfSize);
      for (const a of onStack.keys()) add(t.inclArea, a, node.selfSize);
    }
    for (const c of node.children) walk(c);
    const left = (onStack.get(area) ?? 1) - 1;
    if (left === 0) onStack.delete(area);
    else onStack.set(area, left);
  };
  for (const p of profiles) walk(p.head);
  // The root is on every stack: it would head the inclusive list at 100 %.
  t.inclArea.delete('(root)');
  return t;
}

/**
 * One scenario's allocations over its sampled windows: the bytes, the bytes per request, and
 * the top sites and areas by the bytes allocated there (self) or under them (inclusive).
 */
export function summariseAllocations(label: string, windows: { profile: HeapProfile; requests: number; sampledS: number }[], top = 25): string {
  const t = tally(windows.map((w) => w.profile));
  const requests = windows.reduce((a, w) => a + w.requests, 0);
  const seconds = windows.reduce((a, w) => a + w.sampledS, 0);
  if (t.total === 0) return `${label}: no allocation sampled`;
  const perReq = (v: number) => (requests > 0 ? `${bytes(v / requests).padStart(10)}/req` : '');
  const list = (m: Map<string, number>, n: number) => [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, n)
    .map(([k, v]) => `  ${pct(v, t.total)} ${perReq(v)}  ${k}`).join('\n');
  const rounds = windows.length === 1 ? '1 round' : `${windows.length} rounds`;
  return [
    `${label} (${rounds}): ${bytes(t.total)} allocated${seconds > 0 ? ` in ${seconds.toFixed(1)} s sampled` : ''}, ${requests.toLocaleString('en-US')} requests answered: `
      + `${requests > 0 ? `${bytes(t.total / requests)} per request` : 'no request, no per-request figure'}`,
    `  (V8's sampling heap profiler, a sample every ${SAMPLING_INTERVAL / KiB} KiB on average, objects already collected by minor and major GC included;`,
    '  it scales each sample up, so these bytes are statistical estimates of the real totals; shares below are of all bytes allocated)',
    `allocated by function, self (top ${top}):`, list(t.selfFn, top),
    'allocated by area, self:', list(t.selfArea, 20),
    'allocated by area, inclusive (the area anywhere on the stack):', list(t.inclArea, 20),
  ].join('\n');
}

const readProfile = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as HeapProfile;

/** Every scenario of a --alloc-profile directory, its rounds together, in the order they were first sampled. */
export function summariseAllocDir(dir: string): string {
  const index = join(dir, ALLOC_INDEX);
  if (!existsSync(index)) return `no ${ALLOC_INDEX} in ${dir}`;
  const windows = JSON.parse(readFileSync(index, 'utf8')) as AllocWindow[];
  const scenarios = [...new Set(windows.map((w) => w.scenario))];
  return scenarios.map((s) => summariseAllocations(s, windows.filter((w) => w.scenario === s)
    .map((w) => ({ profile: readProfile(join(dir, w.file)), requests: w.requests, sampledS: w.sampledS })))).join('\n\n');
}

if (require.main === module) {
  const [target, requests] = process.argv.slice(2);
  if (!target) {
    process.stderr.write('usage: node alloc-summary.js <dir of a --alloc-profile run | file.heapprofile [requests]>\n');
    process.exit(1);
  }
  process.stdout.write(`${target.endsWith('.heapprofile')
    ? summariseAllocations(target, [{ profile: readProfile(target), requests: Number(requests ?? 0), sampledS: 0 }])
    : summariseAllocDir(target)}\n`);
}
