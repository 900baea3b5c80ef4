// Renders the Markdown prompt templates in prompts/. A deliberately small Mustache subset:
// `{{name}}` inserts a value, `{{#name}}…{{/name}}` repeats for each element of a list (or once for a
// truthy value), `{{^name}}…{{/name}}` renders when the value is empty or falsy, `{{.}}` is the
// current list element, and `{{!…}}` is a comment. No HTML escaping: these are prompts, not pages.
// Layout is tidied (blank-line runs, edges) on the template's own text only: values are inserted
// exactly as given, and never read again as template.

import { readFileSync } from 'node:fs';
import { assetPath } from './assets.js';

export type TemplateValue = string | number | boolean | undefined | null | TemplateScope | TemplateValue[];
export interface TemplateScope {
  [key: string]: TemplateValue;
}

export interface RenderOptions {
  /** A `{{name}}` with no value is an error (a packaging bug) instead of rendering as nothing. */
  strict?: boolean;
}

const prepared = new Map<string, string>();

/** `prompts/<name>.md`, read and prepared (comments and standalone tag lines removed) once per process. */
function preparedTemplate(name: string): string {
  let text = prepared.get(name);
  if (text === undefined) {
    text = prepare(readFileSync(assetPath('prompts', `${name}.md`), 'utf8'));
    prepared.set(name, text);
  }
  return text;
}

export function renderPrompt(name: string, scope: TemplateScope, options: RenderOptions = {}): string {
  return render(preparedTemplate(name), scope, options);
}

export function renderTemplate(template: string, scope: TemplateScope, options: RenderOptions = {}): string {
  return render(prepare(template), scope, options);
}

function prepare(template: string): string {
  return standaloneTags(stripComments(template));
}

// Values stand in the rendered layout as private-use markers until the layout is tidied.
const MARK_OPEN = '\uE000';
const MARK_CLOSE = '\uE001';
const MARKER = /\uE000(\d+)\uE001/g;

interface RenderState {
  values: string[];
  strict: boolean;
}

function render(template: string, scope: TemplateScope, options: RenderOptions): string {
  const state: RenderState = { values: [], strict: options.strict === true };
  const layout = collapseBlankLines(renderSection(template, [scope], state)).trim() + '\n';
  return layout.replace(MARKER, (_m, i: string) => state.values[Number(i)] ?? '');
}

/** A section tag alone on its line takes its line with it, as in Mustache, so templates can be laid out readably. */
function standaloneTags(template: string): string {
  return template.replace(/^[ \t]*(\{\{[#^/]\s*[\w.]+\s*\}\})[ \t]*\n/gm, '$1');
}

/** `{{! … }}` comments may span words and lines; a comment alone on its line takes the line with it. */
function stripComments(template: string): string {
  return template.replace(/^[ \t]*\{\{![\s\S]*?\}\}[ \t]*\n/gm, '').replace(/\{\{![\s\S]*?\}\}/g, '');
}

const TAG = /\{\{([#^/!]?)\s*([\w.]+|\.)?\s*\}\}/g;

function renderSection(template: string, stack: TemplateValue[], state: RenderState): string {
  let out = '';
  let pos = 0;
  TAG.lastIndex = 0;
  for (;;) {
    TAG.lastIndex = pos;
    const m = TAG.exec(template);
    if (!m) break;
    out += template.slice(pos, m.index);
    const [whole, sigil, name = ''] = m;
    pos = m.index + whole.length;
    if (sigil === '!') continue;
    if (sigil === '#' || sigil === '^') {
      const end = findClose(template, name, pos);
      const inner = template.slice(pos, end.start);
      pos = end.after;
      const value = lookup(stack, name);
      const empty = value === undefined || value === null || value === false || value === '' || (Array.isArray(value) && value.length === 0);
      if (sigil === '^') {
        if (empty) out += renderSection(inner, stack, state);
      } else if (!empty) {
        if (Array.isArray(value)) for (const item of value) out += renderSection(inner, [...stack, item], state);
        else out += renderSection(inner, [...stack, value], state);
      }
      continue;
    }
    if (sigil === '/') throw new Error(`prompt template: unexpected {{/${name}}}`);
    const value = lookup(stack, name);
    if (value === undefined && state.strict) throw new Error(`prompt template: no value for {{${name}}}`);
    out += `${MARK_OPEN}${state.values.length}${MARK_CLOSE}`;
    state.values.push(value === undefined || value === null ? '' : String(value));
  }
  return out + template.slice(pos);
}

function findClose(template: string, name: string, from: number): { start: number; after: number } {
  let depth = 1;
  const re = new RegExp(`\\{\\{([#^/])\\s*${name.replace(/\./g, '\\.')}\\s*\\}\\}`, 'g');
  re.lastIndex = from;
  for (;;) {
    const m = re.exec(template);
    if (!m) throw new Error(`prompt template: {{#${name}}} is never closed`);
    depth += m[1] === '/' ? -1 : 1;
    if (depth === 0) return { start: m.index, after: m.index + m[0].length };
  }
}

function lookup(stack: TemplateValue[], name: string): TemplateValue {
  if (name === '.') return stack[stack.length - 1];
  const [head, ...rest] = name.split('.');
  for (let i = stack.length - 1; i >= 0; i--) {
    const frame = stack[i];
    if (frame !== null && typeof frame === 'object' && !Array.isArray(frame) && head !== undefined && head in frame) {
      let value: TemplateValue = frame[head];
      for (const key of rest) {
        if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
        value = value[key];
      }
      return value;
    }
  }
  return undefined;
}

function collapseBlankLines(text: string): string {
  return text.replace(/\n{3,}/g, '\n\n');
}
