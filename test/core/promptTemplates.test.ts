import { describe, expect, it } from 'vitest';
import { renderTemplate } from '../../core/promptTemplates.js';

describe('renderTemplate', () => {
  it('inserts values, repeats sections over lists and renders inverted sections when empty', () => {
    const t = 'Hi {{name}}.\n{{#items}}\n- {{.}}\n{{/items}}\n{{^items}}\nnothing\n{{/items}}\n';
    expect(renderTemplate(t, { name: 'Ada', items: ['a', 'b'] })).toBe('Hi Ada.\n- a\n- b\n');
    expect(renderTemplate(t, { name: 'Ada', items: [] })).toBe('Hi Ada.\nnothing\n');
  });

  it('looks names up through enclosing scopes and dotted paths', () => {
    const t = '{{#tasks}}{{name}} of {{mission}} ({{meta.kind}}); {{/tasks}}';
    expect(renderTemplate(t, { mission: 'm', tasks: [{ name: 'a', meta: { kind: 'x' } }] })).toBe('a of m (x);\n');
  });

  it('drops comments, even multi-word ones alone on a line, and never substitutes inside them', () => {
    expect(renderTemplate('{{! a comment with {{x}} }}\ntext {{x}}{{!inline}}\n', { x: '1' })).toBe('text 1\n');
  });

  it('inserts values exactly as given: their blank lines, edges and braces are kept', () => {
    const value = '  Fill this form:\n\n\n\nName: {{x}}\n';
    expect(renderTemplate('Objective:\n{{objective}}\n\n\n\nEnd.', { objective: value, x: 'no' })).toBe(`Objective:\n${value}\n\nEnd.\n`);
  });

  it('in strict mode refuses a placeholder without a value', () => {
    expect(() => renderTemplate('Hi {{name}}', {}, { strict: true })).toThrow('no value for {{name}}');
    expect(renderTemplate('Hi {{name}}', {})).toBe('Hi \n');
  });

  it('fails loudly on an unclosed section (a packaging bug, not a user error)', () => {
    expect(() => renderTemplate('{{#a}} open', { a: true })).toThrow('{{#a}} is never closed');
  });
});
