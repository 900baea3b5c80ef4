import { describe, expect, it } from 'vitest';
import { expandQuery, STRONG_LINK, WEAK_LINK } from '../../../runtime/discovery/thesaurus/thesaurus.js';
import { JARGON_TABLE, WORDNET_TABLE } from '../../../runtime/discovery/thesaurus/table.js';
import { stem } from '../../../runtime/discovery/stem.js';
import { isStopWord, splitWords } from '../../../runtime/discovery/tokenize.js';

const expand = (text: string, jargon = true) => expandQuery(splitWords(text), isStopWord, jargon).terms;

describe('WordNet query expansion', () => {
  it('maps a word to tool vocabulary in the same synset (client → customer)', () => {
    expect(expand('client').get(stem('customer'))).toBe(STRONG_LINK);
  });

  it('finds the entry of an inflected word through its stem (phoned → call)', () => {
    expect(expand('phoned').get(stem('call'))).toBe(STRONG_LINK);
  });

  it('follows a verb to the more specific verbs tools are named after, as a weak link', () => {
    expect(expand('remove', false).get(stem('delete'))).toBe(WEAK_LINK);
  });

  it('matches a multi-word phrase and does not expand its words one by one', () => {
    const phrase = expandQuery(splitWords('call off the review'), isStopWord);
    expect(phrase.terms.get(stem('cancel'))).toBe(STRONG_LINK);
    expect(phrase.phraseWords).toEqual(new Set([0, 1]));
    // "call" alone relates to "phone"; inside "call off" it must not.
    expect(expand('call').has(stem('phone'))).toBe(true);
    expect(phrase.terms.has(stem('phone'))).toBe(false);
  });

  it('does not expand stop words on their own', () => {
    expect(expand('the of and').size).toBe(0);
  });

  it('uses the jargon supplement only when enabled (repo → repository)', () => {
    expect(expand('repo').get(stem('repository'))).toBe(STRONG_LINK);
    expect(expand('repo', false).has(stem('repository'))).toBe(false);
  });
});

describe('generated table', () => {
  it('stays small enough to ship', () => {
    expect(Buffer.byteLength(WORDNET_TABLE) + Buffer.byteLength(JARGON_TABLE)).toBeLessThan(300 * 1024);
  });

  it('is one sorted entry per line in the documented format', () => {
    const lines = WORDNET_TABLE.split('\n');
    expect(lines.length).toBeGreaterThan(1000);
    for (const line of lines) expect(line).toMatch(/^[a-z][a-z -]*\t[a-z,-]*(\|[a-z,-]+)?$/);
    expect([...lines].sort()).toEqual(lines);
  });
});
