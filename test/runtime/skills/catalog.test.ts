import { describe, expect, it } from 'vitest';
import { renderSkillCatalog } from '../../../runtime/skills/catalog.js';
import { fillSkillPrompt } from '../../../runtime/skills/template.js';
import { folderSkill, hclSkill } from './fixtures.js';

const bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

const skills = [
  hclSkill('deploy', { description: 'Ship a build to production.' }),
  folderSkill('web-scraping', { description: 'Fetch pages\n  and extract   data.' }),
  hclSkill('triage', { description: 'Sort incoming issues by severity.' }),
  hclSkill('summarize', { description: 'Write a short summary of a document.' }),
];

describe('renderSkillCatalog', () => {
  it('lists every skill with a one-line description in the given order, and says how to load one', () => {
    const catalog = renderSkillCatalog(skills, 100_000);
    expect(catalog.shown).toEqual(['deploy', 'web-scraping', 'triage', 'summarize']);
    expect(catalog.omitted).toEqual([]);
    expect(catalog.text).toContain('`load_skill`');
    expect(catalog.text).toContain('- `web-scraping`: Fetch pages and extract data.');
    const order = ['deploy', 'web-scraping', 'triage', 'summarize'].map((n) => catalog.text.indexOf(`\`${n}\`:`));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(catalog.text).not.toContain('Showing');
    expect(catalog.text).not.toMatch(/\{\{|<!--/);
  });

  it('renders the same text for the same input (prompt caches depend on it)', () => {
    expect(renderSkillCatalog(skills, 100_000).text).toBe(renderSkillCatalog(skills, 100_000).text);
  });

  it('is empty when the agent has no skills', () => {
    expect(renderSkillCatalog([], 100_000)).toEqual({ text: '', shown: [], omitted: [] });
  });

  it('trims to the budget, saying "showing X of Y" and naming what was left out', () => {
    const full = renderSkillCatalog(skills, 100_000).text;
    const budget = bytes(full) - 1;
    const catalog = renderSkillCatalog(skills, budget);
    expect(bytes(catalog.text)).toBeLessThanOrEqual(budget);
    expect(catalog.shown.length).toBeGreaterThan(0);
    expect(catalog.shown.length).toBeLessThan(skills.length);
    expect([...catalog.shown, ...catalog.omitted]).toEqual(skills.map((s) => s.name));
    expect(catalog.text).toContain(`Showing ${catalog.shown.length} of 4 skills`);
    expect(catalog.text).toContain(catalog.omitted.join(', '));
    for (const name of catalog.omitted) {
      expect(catalog.text).not.toContain(`\`${name}\`:`);
      const description = skills.find((s) => s.name === name)?.description ?? '';
      expect(catalog.text).not.toContain(description.slice(0, 12));
    }
  });

  it('keeps as many skills as fit: any catalog showing more is over the budget', () => {
    const results = [];
    for (let budget = 300; budget < 600; budget += 1) results.push({ budget, catalog: renderSkillCatalog(skills, budget) });
    for (const { budget, catalog } of results) {
      expect(bytes(catalog.text)).toBeLessThanOrEqual(budget);
      for (const other of results) {
        if (other.catalog.shown.length > catalog.shown.length) expect(bytes(other.catalog.text)).toBeGreaterThan(budget);
      }
    }
    expect(new Set(results.map((r) => r.catalog.shown.length)).size).toBeGreaterThanOrEqual(3);
  });

  it('names only some omitted skills and "N more" when even the names do not fit', () => {
    const many = Array.from({ length: 40 }, (_, i) => hclSkill(`skill-number-${i}`));
    const headerOnly = renderSkillCatalog([], 0);
    expect(headerOnly.text).toBe('');
    const withAllNames = renderSkillCatalog(many, 100_000);
    const budget = 700;
    expect(bytes(withAllNames.text)).toBeGreaterThan(budget);
    const catalog = renderSkillCatalog(many, budget);
    expect(bytes(catalog.text)).toBeLessThanOrEqual(budget);
    expect(catalog.shown).toEqual([]);
    expect(catalog.omitted).toHaveLength(40);
    expect(catalog.text).toContain('Showing 0 of 40 skills');
    expect(catalog.text).toMatch(/skill-number-0, .* and \d+ more/);
  });

  it('returns no text when not even the header fits', () => {
    const catalog = renderSkillCatalog(skills, 20);
    expect(catalog).toEqual({ text: '', shown: [], omitted: ['deploy', 'web-scraping', 'triage', 'summarize'] });
  });

  it('counts bytes, not characters, for non-ASCII descriptions', () => {
    const accented = [hclSkill('a', { description: 'é'.repeat(200) }), hclSkill('b', { description: 'ü'.repeat(200) })];
    const full = renderSkillCatalog(accented, 100_000).text;
    expect(bytes(full)).toBeGreaterThan(full.length);
    const catalog = renderSkillCatalog(accented, full.length);
    expect(bytes(catalog.text)).toBeLessThanOrEqual(full.length);
    expect(catalog.omitted).toContain('b');
  });
});

describe('prompts/skills.md', () => {
  it('has every section the runtime reads, each rendering on its own', () => {
    const names = [
      'catalog', 'entry', 'trim_note', 'omitted_more', 'tool_description', 'tool_name_description', 'loaded',
      'loaded_tools', 'loaded_folder', 'unknown', 'unknown_suggest', 'none_available', 'invalid_input',
    ] as const;
    const values = { list: 'L', name: 'N', description: 'D', shown: 1, total: 2, omitted: 'O', names: 'NS', count: 3, instructions: 'I', tools: 'T', dir: 'DIR', available: 'A', suggestion: 'S', problem: 'P' };
    const rendered = names.map((name) => fillSkillPrompt(name, values));
    for (const [i, name] of names.entries()) expect(rendered[i], name).toBeTruthy();
    // Each name selects its own section, not the whole file.
    expect(new Set(rendered).size).toBe(names.length);
    expect(fillSkillPrompt('entry', { name: 'x', description: 'd' })).toBe('- `x`: d');
    // A placeholder left without a value is a packaging bug, not a half-filled prompt.
    expect(() => fillSkillPrompt('unknown', { name: 'x' })).toThrow('no value for {{available}}');
  });
});
