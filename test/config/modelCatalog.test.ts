// The model catalog against the installed SDKs: every model id the Anthropic SDK lists is a key,
// every deprecated id carries the SDK's end-of-life date, and every OpenAI key is a ChatModel id.
// When an SDK upgrade adds or deprecates a model, these fail and say which.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { catalogFor, catalogModelByApiId } from '../../config/modelCatalog.js';

const modules = join(import.meta.dirname, '..', '..', 'node_modules');

/** The string literals of `export type <name> = 'a' | 'b' | …;` in a .d.ts file. */
function unionMembers(file: string, name: string): string[] {
  const text = readFileSync(join(modules, file), 'utf8');
  const decl = new RegExp(`export type ${name} = ([^;]*);`).exec(text);
  if (!decl) throw new Error(`type ${name} not found in ${file}`);
  return [...decl[1]!.matchAll(/'([^']+)'/g)].map((m) => m[1]!);
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** 'November 30th, 2026' → '2026-11-30'. */
function isoDate(text: string): string {
  const m = /^(\w+) (\d+)\w*, (\d{4})$/.exec(text);
  if (!m) throw new Error(`unexpected date ${text}`);
  return `${m[3]}-${String(MONTHS.indexOf(m[1]!) + 1).padStart(2, '0')}-${m[2]!.padStart(2, '0')}`;
}

describe('anthropic', () => {
  const sdkModels = unionMembers('@anthropic-ai/sdk/resources/messages/messages.d.ts', 'Model');
  const deprecated = createRequire(import.meta.url)(join(modules, '@anthropic-ai/sdk/internal/data/deprecated-models.js')).DEPRECATED_MODELS as Record<string, string>;

  test('every model id of the SDK is a catalog key or an id of one', () => {
    expect(sdkModels.length).toBeGreaterThan(10);
    expect(sdkModels.filter((id) => catalogModelByApiId('anthropic', id) === undefined)).toEqual([]);
  });

  test('every deprecated id of the SDK carries its end-of-life date', () => {
    expect(Object.keys(deprecated).length).toBeGreaterThan(0);
    const mismatches = Object.entries(deprecated)
      .map(([id, date]) => [id, isoDate(date), catalogModelByApiId('anthropic', id)?.endOfLife?.date] as const)
      .filter(([, want, have]) => want !== have);
    expect(mismatches).toEqual([]);
  });

  test('a key the SDK no longer lists is marked retired', () => {
    const gone = catalogFor('anthropic').filter((c) => !sdkModels.includes(c.apiModel) && !(c.otherIds ?? []).some((id) => sdkModels.includes(id)));
    expect(gone.filter((c) => c.endOfLife === undefined).map((c) => c.key)).toEqual([]);
  });

  test('models that take a reasoning effort say which request form they need', () => {
    expect(catalogFor('anthropic').filter((c) => c.reasoning && c.thinking === undefined).map((c) => c.key)).toEqual([]);
  });
});

test('every Gemini key names its thinking form (level or budget) and its window', () => {
  const gemini = catalogFor('gemini');
  expect(gemini.length).toBeGreaterThan(5);
  expect(gemini.filter((c) => c.thinking === undefined || c.contextWindow === undefined).map((c) => c.key)).toEqual([]);
  // Gemini 3 takes a thinking level, Gemini 2.5 a token budget.
  expect(gemini.filter((c) => (c.apiModel.startsWith('gemini-2.') ? 'budget' : 'adaptive') !== c.thinking).map((c) => c.key)).toEqual([]);
});

test('every OpenAI key is a ChatModel or ResponsesModel id of the SDK, or one named on OpenAI\'s deprecations page', () => {
  // gpt-5.4-pro (the substitute for o3-deep-research) and gpt-5.3-codex (its example of a Codex variant).
  const fromDeprecationsPage = ['gpt-5.4-pro', 'gpt-5.3-codex'];
  const chatModels = [...unionMembers('openai/resources/shared.d.ts', 'ChatModel'), ...unionMembers('openai/resources/shared.d.ts', 'ResponsesModel'), ...fromDeprecationsPage];
  expect(catalogFor('openai').filter((c) => !chatModels.includes(c.apiModel)).map((c) => c.key)).toEqual([]);
});

test('a replacement is a current key of the same provider', () => {
  for (const provider of ['anthropic', 'openai', 'gemini'] as const) {
    const keys = new Map(catalogFor(provider).map((c) => [c.key, c]));
    for (const c of catalogFor(provider)) {
      if (c.endOfLife === undefined) continue;
      const replacement = keys.get(c.endOfLife.replacement);
      expect(replacement?.endOfLife, `${c.key} → ${c.endOfLife.replacement}`).toBeUndefined();
      expect(replacement, `${c.key} → ${c.endOfLife.replacement}`).toBeDefined();
    }
  }
});

test('keys are unique per provider and priced keys have input and output', () => {
  for (const provider of ['anthropic', 'openai', 'gemini'] as const) {
    const keys = catalogFor(provider).map((c) => c.key);
    expect(new Set(keys).size).toBe(keys.length);
    for (const c of catalogFor(provider)) if (c.pricing) expect(c.pricing.output).toBeGreaterThan(c.pricing.input);
  }
});
