// Renders the Markdown prompt templates in prompts/. A deliberately small Mustache subset:
// `{{name}}` inserts a value, `{{#name}}…{{/name}}` repeats for each element of a list (or once for a
// truthy value), `{{^name}}…{{/name}}` renders when the value is empty or falsy, `{{.}}` is the
// current list element, and `{{!…}}` is a comment. No HTML escaping: these are prompts, not pages.

import { readFileSync } from 'node:fs';
import { assetPath } from '../config/assets.js';

export type TemplateValue = string | number | boolean | undefined | null | TemplateScope | TemplateValue[];
export interface TemplateScope {
  [key: string]: TemplateValue;
}

const cache = new Map<string, string>();

/** The raw text of `prompts/<name>.md`, read once per process. */
export function promptTemplate(name: string): string {
  let text = cache.get(name);
  if (text === undefined) {
    text = readFileSync(assetPath('prompts', `${name}.md`), 'utf8');
    cache.set(name, text);
  }
  return text;
}

export function renderPrompt(name: string, scope: TemplateScope): string {
  return renderTemplate(promptTemplate(name), scope);
}

export function renderTemplate(template: string, scope: TemplateScope): string {
  return collapseBlankLines(renderSection(standaloneTags(stripComments(template)), [scope])).trim() + '\n';
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

function renderSection(template: string, stack: TemplateValue[]): string {
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
        if (empty) out += renderSection(inner, stack);
      } else if (!empty) {
        if (Array.isArray(value)) for (const item of value) out += renderSection(inner, [...stack, item]);
        else out += renderSection(inner, [...stack, value]);
      }
      continue;
    }
    if (sigil === '/') throw new Error(`prompt template: unexpected {{/${name}}}`);
    const value = lookup(stack, name);
    out += value === undefined || value === null ? '' : String(value);
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
