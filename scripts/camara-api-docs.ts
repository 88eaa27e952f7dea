import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CAMARA_AUDIT_OPERATIONS, auditOperation } from '../src/audit/audit-operation';
import { scopesForOperations } from '../src/oauth/access-scopes';
import { DECLARED_APIS, DeclaredApi } from '../src/partners/camara-apis';

/*
 * The docs' tables of the CAMARA APIs, written from the declarations (src/partners/camara-apis.ts,
 * CONTRACT §13) so that they cannot go stale: each table sits between two markers,
 * `<!-- camara-apis:<name>:begin -->` and `<!-- camara-apis:<name>:end -->`, and
 * test/infra/readme-camara.test.ts fails when a file holds anything but what is rendered here.
 */

type Row = readonly string[];

function table(header: Row, rows: readonly Row[]): string {
  // An empty cell is `| |`, as the tables were written by hand.
  const line = (cells: Row): string => `|${cells.map((c) => (c === '' ? ' ' : ` ${c} `)).join('|')}|`;
  return [line(header), `|${header.map(() => '---|').join('')}`, ...rows.map(line)].join('\n');
}

const code = (words: readonly string[]): string => (words.length === 0 ? '—' : words.map((w) => `\`${w}\``).join(', '));
const release = (api: DeclaredApi): string => `${api.title} ${api.version}`;

/** README's CAMARA section: each API version and its routes, with what a first reader needs of them. */
function readmeRoutes(): string {
  const rows = DECLARED_APIS.flatMap((api) => api.operations.map((op, i): Row => [
    i === 0 ? `**${release(api)}**` : '',
    op.docs.asks === undefined ? `\`${api.root}/${op.name}\`` : `\`${api.root}/${op.name}\` ${op.docs.asks}`,
    `\`${api.registryOperation}\``,
    op.docs.answer,
  ]));
  return table(['API (release)', 'Routes', 'Registry operation', 'Answer'], rows);
}

/** docs/camara.md: each API version, its root, the registry operation that grants it and the settings that are its own. */
function apiVersions(): string {
  return table(['API (release)', 'Root', 'Registry operation', 'Settings of its own'],
    DECLARED_APIS.map((api) => [`**${release(api)}**`, `\`${api.root}\``, `\`${api.registryOperation}\``, code(api.settings)]));
}

/** docs/camara.md: every declared operation, the scopes that admit it, its registry operation, its bodies. */
function routes(): string {
  const rows = DECLARED_APIS.flatMap((api) => api.operations.map((op): Row => [
    `\`POST ${api.root}/${op.name}\``, code(op.scopes), `\`${api.registryOperation}\``, op.docs.body, op.docs.returns,
  ]));
  return table(['Route', 'Scopes (any one)', 'Registry operation', 'Body', '200 body'], rows);
}

/** docs/camara.md: the scopes each registry operation lets a partner hold, as the token endpoint grants them. */
function scopes(): string {
  const operations = [...new Set(DECLARED_APIS.map((api) => api.registryOperation))];
  return table(['Operation', 'Scopes'], operations.map((op) => [`\`${op}\``, code(scopesForOperations(new Set([op])))]));
}

/** docs/audit.md: the names a CAMARA call's audit record and usage row carry, per API version. */
function auditNames(): string {
  const rows = DECLARED_APIS.flatMap((api) => {
    const names = api.operations.map((op) => auditOperation(api.registryOperation, op.name)).filter((n) => CAMARA_AUDIT_OPERATIONS.includes(n));
    return names.length === 0 ? [] : [[release(api), code(names)]];
  });
  return table(['API (release)', 'Operations recorded (`camara`)'], rows);
}

export interface DocBlock { readonly file: string; readonly name: string; readonly render: () => string }

/** Every generated table: the file (from the repository's root), the markers' name, what goes between them. */
export const DOC_BLOCKS: readonly DocBlock[] = [
  { file: 'README.md', name: 'routes', render: readmeRoutes },
  { file: 'docs/camara.md', name: 'versions', render: apiVersions },
  { file: 'docs/camara.md', name: 'routes', render: routes },
  { file: 'docs/camara.md', name: 'scopes', render: scopes },
  { file: 'docs/audit.md', name: 'audit', render: auditNames },
];

const markers = (name: string): readonly [string, string] => [`<!-- camara-apis:${name}:begin -->`, `<!-- camara-apis:${name}:end -->`];

/** The text between `name`'s markers, or undefined when the markers are missing. */
export function blockIn(text: string, name: string): string | undefined {
  const [begin, end] = markers(name);
  const from = text.indexOf(begin);
  const to = text.indexOf(end);
  if (from < 0 || to < from) return undefined;
  return text.slice(from + begin.length, to).trim();
}

/** `text` with `name`'s block replaced by `block`; blank lines around it, so the table is a block of its own. */
export function withBlock(text: string, name: string, block: string): string {
  const [begin, end] = markers(name);
  const from = text.indexOf(begin);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`lacks the markers ${begin} … ${end}`);
  return `${text.slice(0, from + begin.length)}\n\n${block}\n\n${text.slice(to)}`;
}

/** Each block that differs from its rendering, named with what to run. */
export function staleBlocks(root: string, blocks: readonly DocBlock[] = DOC_BLOCKS): string[] {
  return blocks.filter((b) => blockIn(readFileSync(join(root, b.file), 'utf8'), b.name) !== b.render())
    .map((b) => `${b.file}: the camara-apis:${b.name} table differs from the declarations: run npm run docs:apis`);
}

/** Rewrites every block from the declarations, all files or none (a missing marker writes nothing); returns the files that changed. */
export function writeBlocks(root: string, blocks: readonly DocBlock[] = DOC_BLOCKS): string[] {
  const rewritten = [...new Set(blocks.map((b) => b.file))].map((file) => {
    const before = readFileSync(join(root, file), 'utf8');
    let after = before;
    for (const b of blocks.filter((x) => x.file === file)) {
      try {
        after = withBlock(after, b.name, b.render());
      } catch (err) {
        throw new Error(`${file} ${(err as Error).message}`, { cause: err });
      }
    }
    return { file, changed: after !== before, after };
  });
  for (const r of rewritten.filter((x) => x.changed)) writeFileSync(join(root, r.file), r.after);
  return rewritten.filter((x) => x.changed).map((r) => r.file);
}
