// Renders the system-prompt section that lists the skills an agent may load (name + one-line
// description) in the order given, within a byte budget. When the budget forces a cut, the text says
// "showing X of Y" and names what was left out, so the model can still load those by name.

import type { Skill } from '../../config/graph.js';
import { fillSkillPrompt } from './template.js';

export interface SkillCatalog {
  /** '' when there are no skills, or when not even the header fits the budget. */
  text: string;
  shown: string[];
  omitted: string[];
}

/**
 * Falls back in steps, each the largest that fits `budgetBytes` (UTF-8): every skill; the first k
 * skills plus a note naming all the others; no skills and a note naming the first m others and
 * "N more"; nothing. Byte size grows with k (an entry is longer than its name in the note) and with
 * m, so each step is a binary search: O(n log n) renders at worst.
 */
export function renderSkillCatalog(skills: readonly Skill[], budgetBytes: number): SkillCatalog {
  const names = skills.map((s) => s.name);
  if (skills.length === 0) return { text: '', shown: [], omitted: [] };
  const entries = skills.map((s) => fillSkillPrompt('entry', { name: s.name, description: singleLine(s.description) }));
  const fits = (text: string): boolean => Buffer.byteLength(text, 'utf8') <= budgetBytes;

  const full = render(entries, undefined);
  if (fits(full)) return { text: full, shown: names, omitted: [] };

  const withFirst = (k: number): string =>
    render(entries.slice(0, k), trimNote(k, names.length, names.slice(k).join(', ')));
  const k = largest(0, names.length - 1, (k) => fits(withFirst(k)));
  if (k !== undefined) return { text: withFirst(k), shown: names.slice(0, k), omitted: names.slice(k) };

  const naming = (m: number): string => {
    const listed = names.slice(0, m).join(', ');
    const omitted = fillSkillPrompt('omitted_more', { names: listed, count: names.length - m });
    return render([], trimNote(0, names.length, omitted));
  };
  const m = largest(1, names.length - 1, (m) => fits(naming(m)));
  if (m !== undefined) return { text: naming(m), shown: [], omitted: names };
  return { text: '', shown: [], omitted: names };
}

function render(entries: readonly string[], note: string | undefined): string {
  const list = [entries.join('\n'), note].filter((p): p is string => p !== undefined && p !== '').join('\n\n');
  return fillSkillPrompt('catalog', { list });
}

function trimNote(shown: number, total: number, omitted: string): string {
  return fillSkillPrompt('trim_note', { shown, total, omitted });
}

/** The largest i in [min, max] with ok(i), given ok is monotone (true then false); undefined if none. */
function largest(min: number, max: number, ok: (i: number) => boolean): number | undefined {
  let lo = min;
  let hi = max;
  let best: number | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (ok(mid)) {
      best = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return best;
}

/** Descriptions may be YAML block scalars; one line per skill keeps the list scannable. */
function singleLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
