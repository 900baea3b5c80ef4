// The Go original's memory slots: top-level `memory "name" { description }` (a folder shared by the
// missions that list it) and `packet "name" { path, description }` (a read-only folder of the
// project), and a mission's `memories = [...]`, `memory { description }`, `scratchpad = true` and
// `packets = [...]`. The runtime gives the agents of such a mission the memory tools over them
// (runtime/memory/).

import { statSync } from 'node:fs';
import type { Attribute, Block } from '../hcl/ast.js';
import { diagnosticAt } from '../hcl/diagnostic.js';
import type { MemoryBlock, MissionSlots, PacketBlock } from '../graph.js';
import { resolveConfigPath } from '../configPath.js';
import { resolveNameList } from '../references.js';
import { blockHeader, decodeBody, locationOf, type BlockSchema, type DecodedBody } from '../schema.js';
import { scopeFor, type LoadContext, type Scope } from '../scope.js';
import { readBool, readString, readText } from '../values.js';
import { loadNamedBlocks } from './namedBlocks.js';

const MEMORY_SCHEMA: BlockSchema = { attributes: { description: { required: true } } };
const PACKET_SCHEMA: BlockSchema = { attributes: { path: { required: true }, description: {} } };
export const MISSION_MEMORY_BLOCK = { labels: [], max: 1 } as const;
const RESERVED = ['memory', 'scratchpad'];

function reservedName(block: Block, kind: string, ctx: LoadContext): boolean {
  const name = block.labels[0]!;
  if (!RESERVED.includes(name)) return false;
  ctx.diags.push(
    diagnosticAt(block.labelRanges[0]!, 'error', 'GO011', `${kind} name "${name}" is reserved for the mission's own slots`, `rename it: "memory" is a mission's memory { } and "scratchpad" its scratchpad = true`),
  );
  return true;
}

export function loadMemories(blocks: readonly Block[], missionBlocks: readonly Block[], ctx: LoadContext): MemoryBlock[] {
  const missions = new Set(missionBlocks.map((b) => b.labels[0]));
  const memories = loadNamedBlocks(blocks, 'memory', ctx, (block, name) => {
    const body = decodeBody(block.body, MEMORY_SCHEMA, { what: `memory "${name}"`, header: blockHeader(block) }, ctx.diags);
    const description = readText(body.attrs.get('description'), scopeFor(ctx, 'model', `memory "${name}"`), ctx.diags);
    if (reservedName(block, 'memory', ctx)) return undefined;
    if (missions.has(name)) {
      ctx.diags.push(
        diagnosticAt(block.labelRanges[0]!, 'error', 'GO012', `memory "${name}" has the name of mission "${name}"`, 'rename one of them (the first implementation refused this too: both were shown under one name)'),
      );
      return undefined;
    }
    return description === undefined ? undefined : { name, description, location: locationOf(block) };
  });
  for (const m of memories) ctx.symbols.memories.set(m.name, m);
  return memories;
}

export function loadPackets(blocks: readonly Block[], ctx: LoadContext): PacketBlock[] {
  const packets = loadNamedBlocks(blocks, 'packet', ctx, (block, name) => {
    const body = decodeBody(block.body, PACKET_SCHEMA, { what: `packet "${name}"`, header: blockHeader(block) }, ctx.diags);
    const scope = scopeFor(ctx, 'model', `packet "${name}"`);
    const description = readText(body.attrs.get('description'), scope, ctx.diags);
    const pathAttr = body.attrs.get('path');
    const raw = readString(pathAttr, scope, ctx.diags);
    if (reservedName(block, 'packet', ctx) || raw === undefined || pathAttr === undefined) return undefined;
    const path = packetPath(raw, pathAttr, name, ctx);
    if (path === undefined) return undefined;
    return { name, path, location: locationOf(block), ...(description !== undefined ? { description } : {}) };
  });
  for (const p of packets) ctx.symbols.packets.set(p.name, p);
  return packets;
}

function packetPath(raw: string, attr: Attribute, name: string, ctx: LoadContext): string | undefined {
  const resolved = resolveConfigPath(raw, attr.range.file, ctx.projectRoot);
  if (!resolved.ok) {
    const code = resolved.message.includes('absolute') ? 'FIL006' : 'FIL002';
    ctx.diags.push(diagnosticAt(attr.expr.range, 'error', code, `packet "${name}": ${resolved.message}`, resolved.hint));
    return undefined;
  }
  let isDir = false;
  try {
    isDir = statSync(resolved.path).isDirectory();
  } catch {
    ctx.diags.push(diagnosticAt(attr.expr.range, 'error', 'FIL001', `packet "${name}": path "${raw}" does not exist (${resolved.path})`, 'create the folder, or point path at an existing one (relative to this file, or @/… from the project root)'));
    return undefined;
  }
  if (!isDir) {
    ctx.diags.push(diagnosticAt(attr.expr.range, 'error', 'FIL004', `packet "${name}": path "${raw}" is not a directory`, 'a packet is a folder of files the agents may read'));
    return undefined;
  }
  return resolved.path;
}

/** A mission's slots, or undefined when it declares none. */
export function readMissionSlots(body: DecodedBody, scope: Scope, ctx: LoadContext): MissionSlots | undefined {
  const shared = readNames(body.attrs.get('memories'), 'memories', ctx.symbols.memories, scope, ctx);
  const packets = readNames(body.attrs.get('packets'), 'packets', ctx.symbols.packets, scope, ctx);
  const scratchpad = readBool(body.attrs.get('scratchpad'), scope, ctx.diags) === true;
  const memoryBlock = body.blocks.get('memory')?.[0];
  let memory: { description: string } | undefined;
  if (memoryBlock !== undefined) {
    const own = decodeBody(memoryBlock.body, MEMORY_SCHEMA, { what: `${scope.where} memory`, header: memoryBlock.typeRange }, ctx.diags);
    const description = readText(own.attrs.get('description'), scope, ctx.diags);
    if (description !== undefined) memory = { description };
  }
  if (shared.length === 0 && packets.length === 0 && !scratchpad && memory === undefined) return undefined;
  return { shared, packets, scratchpad, ...(memory ? { memory } : {}) };
}

/** `memories = [...]` / `packets = [...]` (also on a task, where Go reads them and does nothing more). */
export function readNames(attr: Attribute | undefined, ns: 'memories' | 'packets', known: ReadonlyMap<string, unknown>, scope: Scope, ctx: LoadContext): string[] {
  if (attr === undefined) return [];
  return (resolveNameList(attr, ns, known, scope, ctx.diags) ?? []).map((r) => r.name);
}
