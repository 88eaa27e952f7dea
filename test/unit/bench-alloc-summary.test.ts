import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ALLOC_INDEX, AllocWindow, HeapProfile, HeapProfileNode } from '../../bench/alloc-profile';
import { allocAreaOf, siteOf, summariseAllocDir, summariseAllocations } from '../../bench/alloc-summary';

const K = 1024;

function node(functionName: string, url: string, lineNumber: number, selfSize: number, children: HeapProfileNode[] = []): HeapProfileNode {
  return { callFrame: { functionName, url, lineNumber, columnNumber: 4 }, selfSize, id: 0, children };
}
const root = (...children: HeapProfileNode[]): HeapProfile => ({ head: node('(root)', '', -1, 0, children) });

/** The rows under a heading of the summary, as [share, per request, key]. */
function section(text: string, heading: string): [string, string, string][] {
  const lines = text.split('\n');
  const rows: [string, string, string][] = [];
  for (const line of lines.slice(lines.findIndex((l) => l.startsWith(heading)) + 1)) {
    const m = /^ +(\d+\.\d)% +(\S+ \S+\/req) {2}(.*)$/.exec(line);
    if (!m) break;
    rows.push([m[1], m[2], m[3]]);
  }
  return rows;
}

describe('allocation summary (--alloc-profile)', () => {
  let dir: string;
  let serviceUrl: string;

  beforeEach(() => {
    // arrange: a built file of ours with its source map, as npm run build leaves them: built line 10 is line 5 of the .ts.
    dir = mkdtempSync(join(tmpdir(), 'alloc-summary-'));
    const built = join(dir, 'dist', 'src', 'verification');
    mkdirSync(built, { recursive: true });
    writeFileSync(join(built, 'verification-service.js'), '');
    writeFileSync(join(built, 'verification-service.js.map'), JSON.stringify({
      version: 3, file: 'verification-service.js', sourceRoot: '', sources: ['../../../src/verification/verification-service.ts'], names: [], mappings: ';;;;;;;;;AAIA',
    }));
    serviceUrl = pathToFileURL(join(built, 'verification-service.js')).href;
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** Two rounds of S1: 100 KiB over 4 + 6 requests. */
  function twoRounds(): { profile: HeapProfile; requests: number; sampledS: number }[] {
    const first = root(
      node('verify', serviceUrl, 9, 40 * K, [node('asJson', '/app/node_modules/pino/lib/tools.js', 99, 20 * K)]),
      node('(V8 API)', '', -1, 10 * K),
      node('parserOnIncoming', 'node:_http_server', 1118, 10 * K),
    );
    const second = root(node('parserOnIncoming', 'node:_http_server', 1118, 20 * K));
    return [{ profile: first, requests: 4, sampledS: 1 }, { profile: second, requests: 6, sampledS: 1.5 }];
  }

  it('when two rounds are summarised, then the bytes, the bytes per request and each share are of both rounds together', () => {
    // act
    const text = summariseAllocations('S1', twoRounds());

    // assert
    expect(text.split('\n')[0]).toBe('S1 (2 rounds): 100.0 KiB allocated in 2.5 s sampled, 10 requests answered: 10.0 KiB per request');
    expect(text).toMatch(/statistical estimates of the real totals/);
    expect(section(text, 'allocated by function, self')).toEqual([
      ['40.0', '4.0 KiB/req', 'verify src/verification/verification-service.ts:5'],
      ['30.0', '3.0 KiB/req', 'parserOnIncoming node:_http_server:1119'],
      ['20.0', '2.0 KiB/req', 'asJson pino/lib/tools.js:100'],
      ['10.0', '1.0 KiB/req', '(V8 API)'],
    ]);
  });

  it('when areas are summarised, then our code is grouped by folder and each package and node: module is one area; inclusive counts what runs under it', () => {
    const text = summariseAllocations('S1', twoRounds());

    expect(section(text, 'allocated by area, self')).toEqual([
      ['40.0', '4.0 KiB/req', 'src/verification/'],
      ['30.0', '3.0 KiB/req', 'node:_http_server'],
      ['20.0', '2.0 KiB/req', 'pino'],
      ['10.0', '1.0 KiB/req', '(V8 API)'],
    ]);
    // pino's bytes were allocated under our verify(): they count for both; the root, on every stack, is left out.
    expect(section(text, 'allocated by area, inclusive')).toEqual([
      ['60.0', '6.0 KiB/req', 'src/verification/'],
      ['30.0', '3.0 KiB/req', 'node:_http_server'],
      ['20.0', '2.0 KiB/req', 'pino'],
      ['10.0', '1.0 KiB/req', '(V8 API)'],
    ]);
  });

  it("when the bench's directory is read, then each scenario's rounds are merged by its index", () => {
    // arrange
    const [a, b] = twoRounds();
    const index: AllocWindow[] = [
      { scenario: 'S1', round: 0, file: 'S1-round1.heapprofile', requests: a.requests, sampledS: a.sampledS },
      { scenario: 'S1alt', round: 0, file: 'S1alt-round1.heapprofile', requests: 2, sampledS: 1 },
      { scenario: 'S1', round: 1, file: 'S1-round2.heapprofile', requests: b.requests, sampledS: b.sampledS },
    ];
    writeFileSync(join(dir, 'S1-round1.heapprofile'), JSON.stringify(a.profile));
    writeFileSync(join(dir, 'S1-round2.heapprofile'), JSON.stringify(b.profile));
    writeFileSync(join(dir, 'S1alt-round1.heapprofile'), JSON.stringify(root(node('parse', 'node:internal/deps/undici/undici', 0, 3 * K))));
    writeFileSync(join(dir, ALLOC_INDEX), JSON.stringify(index));

    // act
    const text = summariseAllocDir(dir);

    // assert
    const headings = text.split('\n').filter((l) => /^S1/.test(l));
    expect(headings).toEqual([
      'S1 (2 rounds): 100.0 KiB allocated in 2.5 s sampled, 10 requests answered: 10.0 KiB per request',
      'S1alt (1 round): 3.0 KiB allocated in 1.0 s sampled, 2 requests answered: 1.5 KiB per request',
    ]);
  });

  it('when no request was answered, then the bytes are given without a per-request figure', () => {
    const text = summariseAllocations('S1', [{ profile: root(node('f', 'node:events', 1, 2 * K)), requests: 0, sampledS: 1 }]);
    expect(text.split('\n')[0]).toBe('S1 (1 round): 2.0 KiB allocated in 1.0 s sampled, 0 requests answered: no request, no per-request figure');
  });

  it('when a built file of ours has no source map, then its built path and line are shown, not a guessed .ts line; a builtin is (native)', () => {
    expect(siteOf({ functionName: 'f', url: 'file:///nowhere/dist/src/http/json-body.js', lineNumber: 41, columnNumber: 0 })).toBe('src/http/json-body.js:42');
    expect(siteOf({ functionName: 'f', url: '/app/node_modules/@apollo/server/dist/cjs/x.js', lineNumber: 0, columnNumber: 0 })).toBe('@apollo/server/dist/cjs/x.js:1');
    expect(siteOf({ functionName: '(V8 API)', url: '', lineNumber: -1, columnNumber: -1 })).toBe('');
    expect(siteOf({ functionName: 'Map', url: '', lineNumber: -1, columnNumber: -1 })).toBe('(native)');
  });

  it('when areas are named, then scoped packages, node internals and our top-level files get their own', () => {
    expect(allocAreaOf({ functionName: 'x', url: '/app/node_modules/@apollo/server/dist/cjs/x.js' })).toBe('@apollo/server');
    expect(allocAreaOf({ functionName: 'x', url: 'node:internal/streams/readable' })).toBe('node:streams');
    expect(allocAreaOf({ functionName: 'main', url: 'file:///app/dist/src/main.js' })).toBe('src/');
  });
});
