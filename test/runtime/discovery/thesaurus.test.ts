import { describe, expect, it } from 'vitest';
import { expandQuery, expandWords, isKnownStem, STRONG_LINK, WEAK_LINK } from '../../../runtime/discovery/thesaurus/thesaurus.js';
import { JARGON_TABLE, LEXICON_BLOOM, SAAS_TABLE, WORDNET_TABLE } from '../../../runtime/discovery/thesaurus/table.js';
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

  it('uses the SaaS supplement, whose rings link every member to every other, only when enabled', () => {
    const words = (text: string, saas: boolean) => expandQuery(splitWords(text), isStopWord, { jargon: false, saas }).terms;
    expect(words('coupon', true).get(stem('discount'))).toBe(STRONG_LINK);
    expect(words('discount', true).get(stem('coupon'))).toBe(STRONG_LINK);
    expect(words('coupon', false).has(stem('discount'))).toBe(false);
  });

  it('reports expansions per word and per phrase, in query order', () => {
    const entries = expandWords(splitWords('call off the invoice'), isStopWord);
    expect(entries.map((e) => [e.start, e.length])).toEqual([
      [0, 2],
      [3, 1],
    ]);
  });
});

describe('lexicon', () => {
  it('knows the stems of English words, irregular past forms included, and not typos', () => {
    for (const word of ['invoice', 'meetings', 'deploying', 'wrote', 'laptop']) expect(isKnownStem(stem(word))).toBe(true);
    for (const typo of ['tiket', 'pubilc', 'holliday', 'paymnet']) expect(isKnownStem(stem(typo))).toBe(false);
  });
});

describe('generated table', () => {
  it('stays small enough to ship (under 500 KB with the lexicon)', () => {
    const bytes = [WORDNET_TABLE, JARGON_TABLE, SAAS_TABLE, LEXICON_BLOOM.data].reduce((sum, t) => sum + Buffer.byteLength(t), 0);
    expect(bytes).toBeLessThan(500 * 1024);
  });

  it('is one sorted entry per line in the documented format, every word already stemmed', () => {
    for (const table of [WORDNET_TABLE, JARGON_TABLE, SAAS_TABLE]) {
      const lines = table.split('\n');
      expect(lines.length).toBeGreaterThan(100);
      for (const line of lines) expect(line).toMatch(/^[a-z][a-z -]*\t[a-z,-]*(\|[a-z,-]+)?$/);
      expect([...lines].sort()).toEqual(lines);
    }
    // "customer" and "customers" are both stored under their stem "custom".
    expect(WORDNET_TABLE).toMatch(/\ncustom\t/);
    expect(WORDNET_TABLE).not.toMatch(/\ncustomers?\t/);
  });
});

describe('WordNet switch', () => {
  it('leaves only the supplements when WordNet is off', () => {
    const terms = (text: string, wordnet: boolean) => expandQuery(splitWords(text), isStopWord, { wordnet }).terms;
    expect(terms('client', true).get(stem('customer'))).toBe(STRONG_LINK);
    // "phone" → "call" comes from WordNet alone.
    expect(terms('phoned', true).has(stem('call'))).toBe(true);
    expect(terms('phoned', false).has(stem('call'))).toBe(false);
    // The SaaS ring still links client and customer.
    expect(terms('client', false).get(stem('customer'))).toBe(STRONG_LINK);
  });
});
