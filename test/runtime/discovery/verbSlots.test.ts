import { describe, expect, it } from 'vitest';
import { queryWords } from '../../../runtime/discovery/verbSlots.js';

const verbs = (text: string) => {
  const { words, verbSlots } = queryWords(text);
  return words.filter((_, i) => verbSlots.has(i));
};

describe('queryWords verb slots', () => {
  it('takes the first word of each clause, past request fillers, for a verb', () => {
    expect(verbs('erase this person from the CRM')).toEqual(['erase']);
    expect(verbs('please can you send the report')).toContain('send');
    expect(verbs('who do we know at Acme? look up the people there')).toContain('look');
  });

  it('takes a word after a modal, a subject or "to" for a verb', () => {
    expect(verbs('the client wants to stop their plan')).toEqual(['stop']);
  });

  it('does not take a noun for a verb', () => {
    expect(verbs("sign off on Tom's holiday request")).not.toContain('request');
    expect(verbs('comment on the issue that the fix is deployed')).not.toContain('fix');
  });

  it('numbers clauses so that phrases do not cross them', () => {
    expect(queryWords('list invoices, then refund payment').clauses).toEqual([0, 0, 1, 1, 1]);
  });
});
