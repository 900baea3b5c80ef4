// The house's arrows point down (cli → api → runtime → (config, store) → core; config → config/hcl):
// every relative import of every source file is checked against the room it lives in.

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The rooms each room may import from (besides itself). */
const MAY_IMPORT: Record<string, readonly string[]> = {
  core: [],
  'config/hcl': ['core'],
  config: ['config/hcl', 'core'],
  store: ['core'],
  runtime: ['config', 'config/hcl', 'store', 'core'],
  // The OpenTelemetry export observes the runtime's events; api attaches it when it is configured.
  telemetry: ['runtime', 'config', 'config/hcl', 'store', 'core'],
  api: ['telemetry', 'runtime', 'config', 'config/hcl', 'store', 'core'],
  // Missions as tools for other agents (MCP server, A2A): through api/ only.
  mcpserver: ['api', 'core'],
  // The HTTP server runs missions only through api/, and mounts the MCP server and A2A.
  server: ['mcpserver', 'api', 'core'],
  // `squadron serve` starts the server; `squadron mcp serve` the MCP server over stdio.
  cli: ['server', 'mcpserver', 'api', 'core'],
};

function roomOf(file: string): string | undefined {
  const rel = relative(ROOT, file).split('\\').join('/');
  if (rel.startsWith('config/hcl/')) return 'config/hcl';
  const top = rel.split('/')[0]!;
  return top in MAY_IMPORT ? top : undefined;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

const IMPORT = /^\s*(?:import|export)\b[^'"]*?from\s+'(\.[^']+)'|^\s*import\s*\(\s*'(\.[^']+)'|\bimport\(\s*'(\.[^']+)'\s*\)/gm;

function upwardImports(): string[] {
  const wrong: string[] = [];
  for (const room of Object.keys(MAY_IMPORT)) {
    if (room === 'config/hcl') continue; // walked as part of config/
    for (const file of sourceFiles(join(ROOT, room))) {
      const from = roomOf(file)!;
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(IMPORT)) {
        const spec = match[1] ?? match[2] ?? match[3]!;
        const target = roomOf(resolve(dirname(file), spec));
        if (target === undefined || target === from) continue;
        if (!MAY_IMPORT[from]!.includes(target)) wrong.push(`${relative(ROOT, file)} imports ${spec} (${from} → ${target})`);
      }
    }
  }
  return wrong;
}

/**
 * Inside runtime/, the rooms tell the story top-down (docs/concepts/runtime-rooms.md): a room may
 * import only the rooms after it.
 */
const RUNTIME_ROOMS = [
  'testing',
  'plan',
  'inspect',
  'run',
  'schedule',
  'iteration',
  'agents',
  'session',
  'context',
  'operator',
  'model',
  'budget',
  'results',
  'skills',
  'discovery',
  'memory',
  'kernel',
  'tools',
  'providers',
] as const;

function runtimeRoomOf(file: string): string | undefined {
  const rel = relative(join(ROOT, 'runtime'), file).split('\\').join('/');
  if (rel.startsWith('..') || !rel.includes('/')) return undefined;
  return rel.split('/')[0];
}

function upwardInsideRuntime(): string[] {
  const wrong: string[] = [];
  const rank = (room: string | undefined): number => (room === undefined ? -1 : (RUNTIME_ROOMS as readonly string[]).indexOf(room));
  for (const file of sourceFiles(join(ROOT, 'runtime'))) {
    const from = runtimeRoomOf(file);
    if (from === undefined) continue;
    if (rank(from) < 0) {
      wrong.push(`${relative(ROOT, file)} is in no room of runtime/`);
      continue;
    }
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const spec = match[1] ?? match[2] ?? match[3]!;
      const path = resolve(dirname(file), spec);
      if (roomOf(path) !== 'runtime') continue;
      const to = runtimeRoomOf(path);
      if (to === from) continue;
      if (rank(to) <= rank(from)) wrong.push(`${relative(ROOT, file)} imports ${spec} (${from} → ${to ?? 'runtime/'})`);
    }
  }
  return wrong;
}

describe('layers', () => {
  it('inside runtime/, no room imports a room above its own', () => {
    expect(upwardInsideRuntime()).toEqual([]);
  });

  it('runtime/ has no loose files', () => {
    const loose = readdirSync(join(ROOT, 'runtime')).filter((name) => name.endsWith('.ts'));
    expect(loose).toEqual([]);
  });

  it('no source file imports a room above its own', () => {
    expect(upwardImports()).toEqual([]);
  });

  it('the check sees an upward import (store → runtime) when there is one', () => {
    // The rule table itself: what the check would flag.
    expect(MAY_IMPORT.store).not.toContain('runtime');
    expect(MAY_IMPORT.core).toEqual([]);
    const sample = "import type { Part } from '../runtime/providers/types.js';";
    const spec = [...sample.matchAll(IMPORT)][0]![1]!;
    expect(roomOf(resolve(ROOT, 'store', spec))).toBe('runtime');
  });
});
