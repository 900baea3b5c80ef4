// No circles in the import graph, type-only imports included: every relative `import`, `import type`,
// `export … from` and `import('…')` of every source file is an edge, and the strongly connected
// components of that graph must all be single files. A circle of types is still a circle: two modules
// that need each other's vocabulary are one concept split in two, or a shared one defined too high.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ROOMS = ['core', 'config', 'store', 'runtime', 'telemetry', 'api', 'server', 'cli'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/**
 * Static imports and re-exports (`import type` and `export type` included), side-effect imports, and
 * types named through `import('…').Name`. A module loaded lazily (`await import('…')`, kept so a
 * command loads only what it needs) is not an edge: it is read when called, never while loading.
 */
const IMPORT = /^\s*(?:import|export)\b[^'"]*?from\s+'(\.[^']+)'|^\s*import\s+'(\.[^']+)'|\bimport\(\s*'(\.[^']+)'\s*\)\.[A-Za-z_]/gm;

/** The source file a relative specifier names (`./x.js` is `./x.ts`). */
function target(from: string, spec: string): string | undefined {
  const path = resolve(dirname(from), spec);
  for (const candidate of [path.replace(/\.js$/, '.ts'), `${path}.ts`, join(path, 'index.ts'), path]) {
    if (candidate.endsWith('.ts') && existsSync(candidate)) return candidate;
  }
  return undefined;
}

export function importGraph(files: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const edges = new Set<string>();
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const to = target(file, match[1] ?? match[2] ?? match[3]!);
      if (to !== undefined && to !== file) edges.add(to);
    }
    graph.set(file, [...edges]);
  }
  return graph;
}

/** Tarjan's strongly connected components with more than one file (or a file importing itself). */
export function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('import graph', () => {
  it('has no circles, type-only imports included', () => {
    const files = ROOMS.flatMap((room) => sourceFiles(join(ROOT, room)));
    const found = circles(importGraph(files)).map((c) => c.map((f) => relative(ROOT, f).split('\\').join('/')));
    expect(found).toEqual([]);
  });

  it('runtime/, config/, store/ and core/ have no circle at all', () => {
    const files = ['core', 'config', 'store', 'runtime'].flatMap((room) => sourceFiles(join(ROOT, room)));
    expect(circles(importGraph(files)).map((c) => c.map((f) => relative(ROOT, f)))).toEqual([]);
  });

  it('finds a circle of type-only imports when there is one', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(circles(graph)).toEqual([['a', 'b', 'c']]);
    const sample = "import type { SessionModel } from '../session/types.js';\nexport type { X } from './x.js';\nlet t: import('./t.js').T;\nconst lazy = await import('./lazy.js');";
    expect([...sample.matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? m[3])).toEqual(['../session/types.js', './x.js', './t.js']);
  });
});
