// As in Go, the .hcl files inside a packet's folder are not config: a packet is a bundle of files
// for the agents, which may hold .hcl examples. They are dropped, with their syntax errors, before
// any stage reads them. A packet declared in a dropped file does not count.

import { sep } from 'node:path';
import type { File } from './hcl/ast.js';
import { resolveConfigPath } from './configPath.js';

/** The files that are config: those outside every packet folder (paths written as plain strings). */
export function outsidePackets(files: ReadonlyMap<string, File>, projectRoot: string): Set<string> {
  let kept = new Set(files.keys());
  // A few rounds settle it: each drops the packets declared in files the last one dropped.
  for (let round = 0; round < 4; round++) {
    const folders: string[] = [];
    for (const path of kept) {
      for (const block of files.get(path)!.body.blocks) {
        if (block.type !== 'packet') continue;
        const attr = block.body.attributes.find((a) => a.name === 'path');
        if (attr?.expr.kind !== 'Template' || attr.expr.parts.length !== 1 || attr.expr.parts[0]!.kind !== 'TemplateLiteral') continue;
        const resolved = resolveConfigPath(attr.expr.parts[0]!.value, path, projectRoot);
        if (resolved.ok) folders.push(resolved.path + sep);
      }
    }
    const next = new Set([...files.keys()].filter((f) => !folders.some((dir) => f.startsWith(dir))));
    if (next.size === kept.size) return next;
    kept = next;
  }
  return kept;
}
