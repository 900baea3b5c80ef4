import { describe, expect, it } from 'vitest';
import { expandQuery, expandWords, isKnownStem, STRONG_LINK, WEAK_LINK } from '../../../runtime/discovery/thesaurus/thesaurus.js';
import { IDIOMS_TABLE, JARGON_TABLE, LEXICON_BLOOM, SAAS_TABLE, WORDNET_TABLE } from '../../../runtime/discovery/thesaurus/table.js';
import { createToolIndex } from '../../../runtime/discovery/toolIndex.js';
import { makeTools } from './makeTool.js';
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
    const bytes = [WORDNET_TABLE, JARGON_TABLE, SAAS_TABLE, IDIOMS_TABLE, LEXICON_BLOOM.data].reduce((sum, t) => sum + Buffer.byteLength(t), 0);
    expect(bytes).toBeLessThan(500 * 1024);
  });

  it('is one sorted entry per line in the documented format, every word already stemmed', () => {
    for (const table of [WORDNET_TABLE, JARGON_TABLE, SAAS_TABLE, IDIOMS_TABLE]) {
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

describe('idiom supplement', () => {
  const terms = (text: string, idioms = true) => expandQuery(splitWords(text), isStopWord, { idioms }).terms;

  it('reads a contraction as the tokenizer splits it: "can\'t make it" reaches decline', () => {
    // splitWords drops the "t" of "can't", so the stored key is "can make it".
    expect(splitWords("I can't make it to the meeting")).toEqual(['can', 'make', 'it', 'to', 'the', 'meeting']);
    const expansion = expandQuery(splitWords("I can't make it to the meeting"), isStopWord);
    expect(expansion.terms.get(stem('decline'))).toBe(STRONG_LINK);
    expect(expansion.phraseWords).toEqual(new Set([0, 1, 2]));
    expect(terms("we won't make it on Friday").get(stem('decline'))).toBe(STRONG_LINK);
  });

  it('expands everyday phrasings of actions to the verbs tools use', () => {
    expect(terms('sign off on the expense report').get(stem('approve'))).toBe(STRONG_LINK);
    expect(terms('spin up a staging server').get(stem('provision'))).toBe(STRONG_LINK);
    expect(terms('loop in the finance team').get(stem('invite'))).toBe(STRONG_LINK);
    expect(terms('clock in hours for the sprint').get(stem('timesheet'))).toBe(STRONG_LINK);
    expect(terms('ditch the draft').get(stem('delete'))).toBe(STRONG_LINK);
  });

  it('matches a separable phrasal verb with a pronoun between its parts ("pull it up")', () => {
    expect(terms('pull it up').get(stem('show'))).toBe(STRONG_LINK);
    expect(terms('pull up').get(stem('show'))).toBe(STRONG_LINK);
    // The particle must follow: "pull it" alone is not the idiom.
    expect(terms('pull it').has(stem('show'))).toBe(false);
  });

  it('adds its senses to a word WordNet also knows ("kill" a job is cancelling it)', () => {
    expect(terms('kill the nightly job').get(stem('cancel'))).toBe(STRONG_LINK);
    expect(terms('kill the nightly job', false).has(stem('cancel'))).toBe(false);
  });

  it('is switched off by idioms: false, leaving WordNet and the other supplements', () => {
    for (const [query, target] of [
      ["can't make it to the meeting", 'decline'],
      ['pencil me in for Tuesday', 'schedule'],
      ['spin up a staging server', 'provision'],
      ['loop in the finance team', 'invite'],
    ] as const) {
      expect(terms(query, false).has(stem(target))).toBe(false);
    }
    // The jargon supplement still applies.
    expect(terms('open a pr', false).get(stem('pull'))).toBe(STRONG_LINK);
    // `false` for all supplements switches idioms off too.
    expect(expandQuery(splitWords("can't make it"), isStopWord, false).terms.has(stem('decline'))).toBe(false);
  });

  it('stores keys as the tokenizer yields them: no apostrophes, no one-letter words, at most three words', () => {
    const keys = IDIOMS_TABLE.split('\n').map((line) => line.split('\t')[0] ?? '');
    expect(keys).toContain('can make it');
    expect(keys).toContain('take look at');
    for (const key of keys) {
      expect(key.split(' ').length).toBeLessThanOrEqual(3);
      for (const word of key.split(' ')) expect(word.length).toBeGreaterThan(1);
    }
  });

  it('changes a ranking through createToolIndex, and not with idioms: false', () => {
    const tools = makeTools([
      { ref: 'tools.calendar_create_event', group: 'calendar', description: 'Create a calendar event with attendees.' },
      { ref: 'tools.calendar_respond_to_invitation', group: 'calendar', description: 'Accept or decline an invitation.' },
    ]);
    const top = (options: { idioms?: boolean }) => createToolIndex(tools, options).rank("sorry, I can't make it tomorrow")[0]?.tool.apiName;
    expect(top({})).toBe('tools_calendar_respond_to_invitation');
    expect(top({ idioms: false })).not.toBe('tools_calendar_respond_to_invitation');
  });
});
