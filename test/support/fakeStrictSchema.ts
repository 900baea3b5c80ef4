// What the real APIs refuse in a tool marked strict, so the fake server can refuse it too (400) and
// a schema the runtime sends in strict form is held to the providers' rules: every object closed
// (`additionalProperties: false`), only keywords of the strict subset, and for OpenAI every property
// listed in `required`.

import type { FakeApi } from './fakeTypes.js';
import { asJson, list } from './wireJson.js';

const ALLOWED = new Set(['type', 'description', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'const', 'anyOf']);

export function strictToolProblems(api: FakeApi, body: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const raw of list(body['tools'])) {
    const tool = asJson(raw);
    const fn = api === 'openai' ? asJson(tool['function']) : tool;
    if (fn['strict'] !== true) continue;
    const schema = api === 'anthropic' ? fn['input_schema'] : fn['parameters'];
    checkSchema(api, schema, `tool ${String(fn['name'])}`, problems);
  }
  return problems;
}

function checkSchema(api: FakeApi, value: unknown, path: string, problems: string[]): void {
  const schema = asJson(value);
  for (const key of Object.keys(schema)) if (!ALLOWED.has(key)) problems.push(`${path}: '${key}' is not supported in strict mode`);
  const types = Array.isArray(schema['type']) ? schema['type'] : [schema['type']];
  if (types.includes('object')) {
    if (schema['additionalProperties'] !== false) problems.push(`${path}: 'additionalProperties' is required to be supplied and to be false`);
    const properties = asJson(schema['properties']);
    const required = list(schema['required']);
    for (const [name, property] of Object.entries(properties)) {
      if (api !== 'anthropic' && !required.includes(name)) problems.push(`${path}: 'required' is required to include every key in properties: missing '${name}'`);
      checkSchema(api, property, `${path}.${name}`, problems);
    }
  }
  if (schema['items'] !== undefined) checkSchema(api, schema['items'], `${path}[]`, problems);
  for (const branch of list(schema['anyOf'])) checkSchema(api, branch, path, problems);
}
