// Stage 4: skills — HCL `skill` blocks and SKILL.md folders found under each `skills_dir`. Both
// share one namespace (`skills.<name>`); folder skill names may contain hyphens.

import { dirname, resolve } from 'node:path';
import type { Attribute, Block } from '../hcl/ast.js';
import { diagnosticAt, type Range } from '../hcl/diagnostic.js';
import type { Skill } from '../graph.js';
import { resolveToolList } from '../references.js';
import { blockHeader, decodeBody, NameRegistry, type BlockSchema } from '../schema.js';
import { loadNamedBlocks } from './namedBlocks.js';
import { scopeFor, type LoadContext, type Scope } from '../scope.js';
import { duplicateSkillDiagnostics, loadSkillFolders } from '../skillFolders.js';
import { evaluateValue, readText, toStringValue } from '../values.js';

const SCHEMA: BlockSchema = { attributes: { description: { required: true }, instructions: { required: true }, tools: {} } };

export function loadSkills(blocks: readonly Block[], skillsDirAttrs: readonly Attribute[], ctx: LoadContext): Skill[] {
  const names = new NameRegistry('skill');
  const out = loadNamedBlocks(blocks, 'skill', ctx, (block, name) => loadSkill(block, name, ctx), { namespace: 'skills', names });
  for (const skill of out) ctx.symbols.skills.set(skill.name, skill);

  const dirs = skillDirs(skillsDirAttrs, ctx);
  if (dirs.length > 0) {
    const folders = loadSkillFolders(dirs);
    ctx.diags.push(...folders.diagnostics);
    for (const [file, text] of folders.sources) ctx.sources.set(file, text);
    // Folder-vs-folder duplicates are already reported; this adds HCL-vs-folder ones (SKL040, the
    // HCL block keeps the name) and names that differ only by case or -/_ (SKL041).
    ctx.diags.push(...duplicateSkillDiagnostics([...out, ...folders.skills]));
    for (const skill of folders.skills) {
      if (ctx.symbols.skills.has(skill.name) || names.has(skill.name)) continue;
      ctx.symbols.skills.set(skill.name, skill);
      out.push(skill);
    }
  }
  return out;
}

export function loadSkill(block: Block, name: string, ctx: LoadContext): Skill | undefined {
  const where = `skill "${name}"`;
  const scope = scopeFor(ctx, 'skill', 'a skill block');
  const body = decodeBody(block.body, SCHEMA, { what: where, header: blockHeader(block) }, ctx.diags);
  const description = readText(body.attrs.get('description'), scope, ctx.diags);
  const instructions = readText(body.attrs.get('instructions'), scope, ctx.diags);
  const toolsAttr = body.attrs.get('tools');
  const tools = toolsAttr === undefined ? [] : resolveToolList(toolsAttr, `skill:${name}`, scope, ctx.diags);
  if (description === undefined || instructions === undefined || tools === undefined) return undefined;
  return {
    name,
    description,
    instructions,
    // Every tool a skill unlocks is there because of the skill, toolset-expanded or not.
    tools: tools.map((t) => ({ ref: t.ref, via: `skill:${name}` as const })),
    origin: { kind: 'hcl', file: block.range.file, line: block.range.start.line },
  };
}

/** `skills_dir = "./skills"` or a list, each relative to its file (loadSkillFolders checks they exist). */
function skillDirs(attrs: readonly Attribute[], ctx: LoadContext): { path: string; declaredAt: Range }[] {
  const out: { path: string; declaredAt: Range }[] = [];
  for (const attr of attrs) {
    const scope: Scope = scopeFor(ctx, 'skill', 'skills_dir');
    const items = attr.expr.kind === 'Tuple' ? attr.expr.items : [attr.expr];
    for (const item of items) {
      const v = evaluateValue(item, scope, ctx.diags);
      if (v === undefined) continue;
      if (Array.isArray(v)) {
        ctx.diags.push(diagnosticAt(item.range, 'error', 'SCH007', 'skills_dir must be a path or a list of paths'));
        continue;
      }
      const rel = toStringValue(v, item.range, ctx.diags);
      if (rel === undefined) continue;
      const path = resolve(dirname(attr.range.file), rel);
      if (!out.some((d) => d.path === path)) out.push({ path, declaredAt: item.range });
    }
  }
  return out;
}
