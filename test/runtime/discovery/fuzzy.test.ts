import { describe, expect, it } from 'vitest';
import { allowedEdits, boundedDistance, createSpellingIndex } from '../../../runtime/discovery/fuzzy.js';

describe('boundedDistance', () => {
  it('counts insertions, deletions, substitutions and adjacent transpositions as one edit each', () => {
    expect(boundedDistance('ticket', 'tiket', 2)).toBe(1);
    expect(boundedDistance('public', 'pubilc', 2)).toBe(1);
    expect(boundedDistance('refund', 'refind', 2)).toBe(1);
    expect(boundedDistance('holiday', 'holliday', 2)).toBe(1);
    expect(boundedDistance('invoice', 'invoice', 2)).toBe(0);
    expect(boundedDistance('calendar', 'calnedra', 3)).toBe(2);
  });

  it('stops at the bound and answers bound + 1 beyond it', () => {
    expect(boundedDistance('invoice', 'payment', 1)).toBe(2);
    expect(boundedDistance('a', 'abcdef', 2)).toBe(3);
  });
});

describe('allowedEdits', () => {
  it('allows no edit below four letters, one up to seven and two from eight', () => {
    expect([3, 4, 7, 8, 12].map(allowedEdits)).toEqual([0, 1, 1, 2, 2]);
  });
});

describe('createSpellingIndex', () => {
  const index = createSpellingIndex(['ticket', 'public', 'invoic', 'invit', 'calendar', 'cart', 'part']);

  it('corrects a misspelling to the nearest word', () => {
    expect(index.nearest('tiket')).toEqual(['ticket']);
    expect(index.nearest('pubilc')).toEqual(['public']);
    expect(index.nearest('calnedar')).toEqual(['calendar']);
  });

  it('returns every word at the smallest distance, sorted', () => {
    expect(createSpellingIndex(['bolt', 'boat', 'bolts']).nearest('bolt')).toEqual(['bolt']);
    expect(createSpellingIndex(['coat', 'cost']).nearest('cott')).toEqual(['coat', 'cost']);
  });

  it('leaves short words, far words and words with another first letter alone', () => {
    expect(index.nearest('inv')).toEqual([]);
    expect(index.nearest('xyzzy')).toEqual([]);
    expect(index.nearest('dart')).toEqual([]);
  });
});
