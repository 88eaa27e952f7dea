import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The parts of a V8 .cpuprofile (node --cpu-prof) the summary reads. */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame's code lives: a package, a file of ours, Node's internals, or a V8 pseudo-frame. */
export function areaOf(url: string, functionName: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  if (url.startsWith('node:')) return url.replace(/^node:(internal\/)?/, 'node:').replace(/\/.*$/, '');
  const ours = /\/dist\/(src\/.*)\.js$/.exec(url);
  return ours ? ours[1] : url;
}

const pct = (part: number, total: number) => `${((100 * part) / total).toFixed(1).padStart(5)}%`;

/** Self time by function and by area, and inclusive time by area (time with that area anywhere on the stack). */
export function summariseProfile(file: string, top = 25): string {
  const p = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfFn = new Map<string, number>();
  const selfArea = new Map<string, number>();
  const inclArea = new Map<string, number>();
  const inclOurs = new Map<string, number>();
  const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
  let total = 0;
  let idle = 0;
  p.samples.forEach((id, i) => {
    const dt = p.timeDeltas[i] ?? 0;
    const node = byId.get(id);
    if (!node) return;
    const { functionName, url, lineNumber } = node.callFrame;
    total += dt;
    if (functionName === '(idle)') {
      idle += dt;
      return;
    }
    const area = areaOf(url, functionName);
    add(selfFn, `${functionName || '(anonymous)'} ${area}:${lineNumber + 1}`, dt);
    add(selfArea, area, dt);
    const seen = new Set<string>();
    const ours = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const f = byId.get(cur)?.callFrame;
      if (!f || !f.url) continue;
      const a = areaOf(f.url, f.functionName);
      seen.add(a);
      if (a.startsWith('src/')) ours.add(`${f.functionName || '(anonymous)'} ${a}:${f.lineNumber + 1}`);
    }
    for (const a of seen) add(inclArea, a, dt);
    for (const f of ours) add(inclOurs, f, dt);
  });
  const busy = total - idle;
  const list = (m: Map<string, number>, n: number) => [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, n)
    .map(([k, v]) => `  ${pct(v, busy)}  ${k}`).join('\n');
  return [
    `${file}: ${(total / 1e6).toFixed(1)} s profiled, ${pct(busy, total).trim()} busy; shares below are of busy time`,
    `self time by function (top ${top}):`, list(selfFn, top),
    'self time by area:', list(selfArea, 20),
    'inclusive time by area (on the stack):', list(inclArea, 20),
    'inclusive time of our functions (an Express middleware includes the ones its next() runs):', list(inclOurs, top),
  ].join('\n');
}

export function summariseProfiles(dir: string): string {
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  if (files.length === 0) return `no .cpuprofile in ${dir}`;
  return files.map((f) => summariseProfile(join(dir, f))).join('\n\n');
}

if (require.main === module) {
  const target = process.argv[2];
  if (!target) {
    process.stderr.write('usage: node profile-summary.js <file.cpuprofile | dir>\n');
    process.exit(1);
  }
  process.stdout.write(`${target.endsWith('.cpuprofile') ? summariseProfile(target) : summariseProfiles(target)}\n`);
}
