// The `builtins` documentation page, written from the ToolSpecs the runtime registers (the loader's
// catalog with its implementations attached), so the page lists exactly the tools a mission can use,
// with the descriptions and input schemas the model is sent. `squadron docs builtins` prints it.

import { builtinToolSpecs } from '../runtime/tools/builtins/index.js';
import type { ToolSpec } from '../runtime/tools/types.js';

type Schema = Record<string, unknown>;

const NAMESPACE_NOTES: Readonly<Record<string, string>> = {
  'builtins.http':
    'HTTP requests to absolute `http://` or `https://` URLs. Each returns the status, the response headers and the body (long bodies are cut, and the result says so).',
  'builtins.utils': 'Small helpers that touch nothing outside the run.',
  'builtins.files':
    "Text files in the run's workspace directory (`--workspace`, default `.squadron/workspaces/<run id>/` beside the config). Paths are relative to it and cannot leave it; what the file tools guarantee is described in [workspace](concepts/workspace.md).",
};

export function builtinsPage(specs: readonly ToolSpec[] = builtinToolSpecs()): string {
  const groups = [...new Set(specs.map((s) => s.group))];
  const lines: string[] = [
    '# builtins',
    '',
    `The ${specs.length} built-in tools (\`builtins.*\`), each with its description and inputs.`,
    '',
    "List them in a task's, agent's, toolset's or skill's `tools` as `builtins.<namespace>.<name>`, or",
    'a whole namespace as `builtins.<namespace>.all`. This page is generated from the tool definitions',
    'the runtime uses: the descriptions and inputs below are what the model is sent, under the API',
    'name (dots become underscores). A call that was interrupted (the process died while it ran) is',
    'run again on resume only when its tool is marked "safe to re-run"; otherwise the model is told it',
    'was interrupted. A finished call is never repeated: its recorded result is replayed.',
  ];
  for (const group of groups) {
    lines.push('', `## ${group}`, '');
    const note = NAMESPACE_NOTES[group];
    if (note !== undefined) lines.push(note, '');
    lines.push(`\`${group}.all\` expands to: ${specs.filter((s) => s.group === group).map((s) => `\`${s.ref}\``).join(', ')}.`);
    for (const spec of specs.filter((s) => s.group === group)) lines.push('', ...toolSection(spec));
  }
  return `${lines.join('\n')}\n`;
}

function toolSection(spec: ToolSpec): string[] {
  const lines = [`### ${spec.ref}`, '', spec.description, '', `API name \`${spec.apiName}\`; ${spec.idempotent ? 'safe to re-run' : 'not re-run when interrupted'}.`];
  const properties = (spec.inputSchema['properties'] ?? {}) as Record<string, Schema>;
  const required = new Set((spec.inputSchema['required'] ?? []) as string[]);
  const names = Object.keys(properties);
  if (names.length === 0) return [...lines, '', 'No inputs.'];
  lines.push('', '| input | type | required | description |', '|---|---|---|---|');
  for (const name of names) {
    const schema = properties[name]!;
    lines.push(`| \`${name}\` | ${cell(typeOf(schema))} | ${required.has(name) ? 'yes' : 'no'} | ${cell(String(schema['description'] ?? ''))} |`);
  }
  return lines;
}

/** A schema's type in a few words: `string`, `"json" \| "form"`, `object or string`, `number, > 0, ≤ 60`. */
export function typeOf(schema: Schema): string {
  if (Array.isArray(schema['enum'])) return (schema['enum'] as unknown[]).map((v) => JSON.stringify(v)).join(' | ');
  if (Array.isArray(schema['anyOf'])) return (schema['anyOf'] as Schema[]).map(typeOf).join(' or ');
  const type = Array.isArray(schema['type']) ? (schema['type'] as string[]).join(' or ') : String(schema['type'] ?? 'any');
  if (type === 'object' && typeof schema['additionalProperties'] === 'object') {
    return `object of ${typeOf(schema['additionalProperties'] as Schema)}s`;
  }
  if (type === 'array' && typeof schema['items'] === 'object') return `list of ${typeOf(schema['items'] as Schema)}s`;
  const bounds: string[] = [];
  if (typeof schema['minimum'] === 'number') bounds.push(`≥ ${schema['minimum']}`);
  if (typeof schema['exclusiveMinimum'] === 'number') bounds.push(`> ${schema['exclusiveMinimum']}`);
  if (typeof schema['maximum'] === 'number') bounds.push(`≤ ${schema['maximum']}`);
  if (typeof schema['exclusiveMaximum'] === 'number') bounds.push(`< ${schema['exclusiveMaximum']}`);
  return [type, ...bounds].join(', ');
}

/** Text safe inside a Markdown table cell. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}
