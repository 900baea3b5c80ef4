// Finds the words of a query that stand where a verb stands, without a part-of-speech tagger: the
// first word of a clause ("erase this person", "…? look up the people") and a word right after a
// subject, modal or infinitive marker ("we need to cancel", "can you send"). Only these words are
// read as actions, so the noun in "Tom's holiday request" is not taken for the verb "request".

import { isStopWord, splitWords } from './tokenize.js';

/** Words after which the next word is a verb. */
const BEFORE_VERB = new Set(
  `to please pls and then also just i we you they he she it can could would will should must shall
  may might need needs want wants let lets gotta kindly`.split(/\s+/),
);

/** Words that may open a request before its verb ("please", "can you", "I want to"). */
const FILLER = new Set(`please pls kindly can could would will you we i just also let lets need needs want wants to ok okay hey hi so now`.split(/\s+/));

export interface QueryWords {
  /** The query's words, as splitWords gives them, clause after clause. */
  words: string[];
  /** Positions in `words` that stand in a verb slot. */
  verbSlots: Set<number>;
  /** The clause (0, 1, …) each word belongs to, by position. */
  clauses: number[];
}

export function queryWords(text: string, keepWhole?: (word: string) => boolean): QueryWords {
  const words: string[] = [];
  const verbSlots = new Set<number>();
  const clauses: number[] = [];
  // A clause ends at sentence punctuation or a comma followed by a space (not "2,500" or "a.b").
  text.split(/[.?!;:,]+(?=\s|$)|\s[-–—]\s/).forEach((clause, c) => {
    const clauseWords = splitWords(clause, keepWhole);
    let opening = true;
    clauseWords.forEach((word, j) => {
      const previous = clauseWords[j - 1];
      if (opening && !FILLER.has(word)) {
        // A clause opening with a determiner or a question word ("the client…", "which…") has a
        // noun or a question there, not a verb.
        if (!isStopWord(word)) verbSlots.add(words.length);
        opening = false;
      } else if (previous !== undefined && BEFORE_VERB.has(previous) && !isStopWord(word)) verbSlots.add(words.length);
      words.push(word);
      clauses.push(c);
    });
  });
  return { words, verbSlots, clauses };
}
