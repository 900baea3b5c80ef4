// Prints recall@1 and recall@5 of search_tools ranking against bench/fixtures/catalog.json over eight
// intent sets, next to a plain BM25 baseline, the techniques added one by one, and each technique
// left out of the full ranker; then search latency, index build time and size. Figures are printed,
// never asserted.
//
//   npm run build && node bench/discovery-recall.mjs [--misses]
//
// Intent sets (none is edited once written; their sha256 is printed so a change would show):
//  - intents.json: 100 intents; odd ids are the dev split (allowed to inform tuning), even ids are
//    held out (only ever scored);
//  - intents-fresh.json: 50 intents written after the first ranker was frozen;
//  - intents-holdout2.json: 100 intents written before the second round of ranking work, never used
//    for tuning. Its "distinct" column leaves out the intents that nearly repeat one of the other two
//    files (same expected tool and a Jaccard overlap of content words ≥ 0.3): those measure less.
//  - intents-holdout3.json: 100 intents (100 distinct tools) written from the catalog alone, by a
//    writer who saw neither the ranker nor the other sets, before the idioms supplement was written
//    (whose writer never saw any intent set). Only ever scored. "pooled" is R@5 over all 450 intents.
//
//  - intents-holdout4.json: 100 intents (96 distinct tools) written the same way after the ranker was
//    frozen (commit d1d0bf6), to score that decision cleanly; scored once, then only printed.
//
// Honesty note. Holdout3 was scored twice before any decision (without idioms 0.91, with them 0.93).
// The decision that followed, turning WordNet off by default, tied on the dev split and was made
// with every column in view (WordNet had cost held-out recall since the first round): from then on
// no column is a clean estimate for that choice. A fourth set written now would be the clean one.
//
// Round 3, decided before any of its figures were seen (committed before the round-2 idioms existed):
//  - intents-holdout5.json: 100 intents (100 distinct tools) written blind from catalog.json alone,
//    in the hard style of intents.json (everyday words, not the descriptions'), committed unscored.
//  - A second round of idioms is written by a writer who sees no intent set and no ranker code. It is
//    kept iff, over the 450 earlier intents, pooled R@5 does not fall and no set's R@5 falls by more
//    than 0.02. Pseudo-relevance feedback (RM3-style) and rank fusion were tried and rejected on the
//    earlier sets before this rule was written (both lowered the held-out half of intents.json).
//  - Then holdout5 is scored once, with whatever ranker results, and reported as it comes out.
// Outcome (commit 6f5d84c + this one): the round-2 idioms raised every earlier set (pooled 450: 0.93 →
// 0.96) and were kept. Caveat: the writer's brief named three kinds of construction ("let X make
// changes", "how has X trended", "show me X") drawn from dev-split misses, which the protocol allows
// but which flatters the dev split (0.92 → 0.98; held-out half 0.84 → 0.86). Holdout5, scored once
// afterwards: R@5 0.84 (plain BM25 0.50), the clean estimate for hard, everyday paraphrases.
//
// Round 4. After its one scoring, holdout5 became a dev set: its misses informed three new shapes in
// entities.ts (owner/repo → repository, phone numbers → phone, record ids → the thing their prefix
// abbreviates, or nothing). They raised holdout5 0.84 → 0.91 and moved no other set down (holdout2
// 0.94 → 0.95, holdout3 0.98 → 0.99). Tried and rejected: reading quoted text and what follows
// "…: " as content at a lower weight (held-out half 0.86 → 0.84, holdout5 0.91 → 0.90).
// intents-holdout6.json (100 hard intents, written blind like holdout5 and committed unscored in
// d327c3d) is then scored once, with this ranker, and reported as it comes out: R@5 0.84 (plain BM25
// 0.38, the hardest set yet). Two blind hard sets, two clean figures of 0.84.
//
// Round 5, written down before its figures. Holdout6 joins holdout5 as a dev set. Changes: four shape
// fixes in entities.ts (an "@acme.com" domain or a "mia@" handle is an e-mail, not an @mention; a path
// whose last part has a dot is a file; several files named at once add "multiple"; ids of several
// parts such as INV-D-0101), and a third round of idioms by a writer who sees no intent set, though
// its brief names about fifteen phrasings taken from holdout5/6 misses ("permitted", "how big", "last
// touched", "binned", "fold into", "direct line", "markdown", "sales database"…). The idioms are kept
// iff pooled R@5 over the 650 earlier intents does not fall and no set falls by more than 0.02. Then
// intents-holdout7.json, written blind and committed unscored, is scored once.
// Outcome: the idioms raised holdout6 0.86 → 0.90, holdout5 0.92 → 0.94, fresh 0.94 → 0.98 and
// lowered nothing, so they were kept. Holdout7, scored once afterwards: R@5 0.92 (plain BM25 0.51).
// With 100 intents its standard error is about 0.03.
//
// `--misses` lists the dev-split intents whose expected tool is not in the top 5 (full ranker); the
// other sets are only ever scored, so that their figures stay honest estimates.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const { createToolIndex } = await import(`${root}dist/runtime/discovery/toolIndex.js`);
const { searchTools } = await import(`${root}dist/runtime/discovery/searchTools.js`);
const { analyze } = await import(`${root}dist/runtime/discovery/tokenize.js`);
const table = await import(`${root}dist/runtime/discovery/thesaurus/table.js`);

const fixture = (name) => {
  const text = readFileSync(`${root}bench/fixtures/${name}`, 'utf8');
  return { data: JSON.parse(text), sha: createHash('sha256').update(text).digest('hex') };
};
const catalog = fixture('catalog.json').data;
const original = fixture('intents.json');
const freshFile = fixture('intents-fresh.json');
const holdout2File = fixture('intents-holdout2.json');
const holdout3File = fixture('intents-holdout3.json');
const holdout4File = fixture('intents-holdout4.json');
const holdout5File = fixture('intents-holdout5.json');
const holdout6File = fixture('intents-holdout6.json');
const holdout7File = fixture('intents-holdout7.json');
const intents = original.data.intents;
const fresh = freshFile.data.intents;
const holdout2 = holdout2File.data.intents;
const holdout3 = holdout3File.data.intents;
const holdout4 = holdout4File.data.intents;
const holdout5 = holdout5File.data.intents;
const holdout6 = holdout6File.data.intents;
const holdout7 = holdout7File.data.intents;
const tools = catalog.tools.map((t) => ({ ...t, execute: async () => ({ content: [], isError: false }) }));

// ---------------------------------------------------------------- near-repeats in holdout2
const contentSet = (text) => new Set(analyze(text));
const earlier = [...intents, ...fresh].map((i) => ({ expected: i.expected, words: contentSet(i.intent) }));
function nearRepeat(intent) {
  const words = contentSet(intent.intent);
  return earlier.some((e) => {
    if (e.expected !== intent.expected) return false;
    const shared = [...words].filter((w) => e.words.has(w)).length;
    return shared / (words.size + e.words.size - shared || 1) >= 0.3;
  });
}
const distinct = holdout2.filter((i) => !nearRepeat(i));

// ---------------------------------------------------------------- plain BM25 baseline
// One field (API name + description), lower-cased, split on non-alphanumerics, no stemming, no stop
// words, no expansion, k1 = 1.2, b = 0.75: what a first implementation would do.
function plainBm25(docs) {
  const tokens = (text) => text.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
  const bags = docs.map((d) => tokens(`${d.apiName} ${d.description}`));
  const avg = bags.reduce((s, b) => s + b.length, 0) / bags.length;
  const df = new Map();
  for (const bag of bags) for (const t of new Set(bag)) df.set(t, (df.get(t) ?? 0) + 1);
  const n = bags.length;
  return (query) => {
    const q = [...new Set(tokens(query))];
    const scored = bags.map((bag, i) => {
      let score = 0;
      for (const t of q) {
        const tf = bag.filter((x) => x === t).length;
        if (tf === 0) continue;
        const idf = Math.log(1 + (n - df.get(t) + 0.5) / (df.get(t) + 0.5));
        score += (idf * tf * 2.2) / (tf + 1.2 * (1 - 0.75 + (0.75 * bag.length) / avg));
      }
      return { name: docs[i].apiName, score };
    });
    return scored.filter((s) => s.score > 0).sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : 1)).map((s) => s.name);
  };
}

function recall(rankFn, subset) {
  let at1 = 0;
  let at5 = 0;
  const misses = [];
  for (const intent of subset) {
    const names = rankFn(intent.intent);
    const pos = names.indexOf(intent.expected);
    if (pos === 0) at1++;
    if (pos >= 0 && pos < 5) at5++;
    else misses.push({ ...intent, got: names.slice(0, 3), pos });
  }
  return { at1: at1 / subset.length, at5: at5 / subset.length, misses };
}

const fromIndex = (index) => (q) => index.rank(q).map((r) => r.tool.apiName);
// The full ranker is measured through search_tools itself (first page, parsed back from JSON).
const fullIndex = createToolIndex(tools);
function viaSearchTool(query) {
  const names = [];
  for (let page = 1; page && names.length < 5; ) {
    const result = JSON.parse(searchTools(fullIndex, { query, page }).content[0].text);
    if (!result.results) break;
    names.push(...result.results.map((r) => r.name));
    page = result.next_page;
  }
  return names;
}

// Each step adds one technique to the previous row; the last row is what search_tools does.
const NONE = { wordnet: false, jargon: false, saas: false, idioms: false, actions: false, entities: false, typos: false, phraseWeight: 0 };
const cumulative = [
  ['plain BM25 (name+description, no stemming)', plainBm25(tools)],
  ['BM25F fields, split identifiers, verb+object', { ...NONE, stemming: false, expansion: false }],
  ['  + stop words + Porter stemming', { ...NONE, expansion: false }],
  ['  + jargon supplement', { ...NONE, jargon: true }],
  ['  + SaaS object synonyms', { ...NONE, jargon: true, saas: true }],
  ['  + action classes in verb slots', { ...NONE, jargon: true, saas: true, actions: true }],
  ['  + entities (paths, URLs, …) and questions', { ...NONE, jargon: true, saas: true, actions: true, entities: true }],
  ['  + typo correction', { ...NONE, jargon: true, saas: true, actions: true, entities: true, typos: true }],
  ['  + everyday idioms', { ...NONE, jargon: true, saas: true, actions: true, entities: true, typos: true, idioms: true }],
  ['  + phrase pairs = search_tools default', viaSearchTool],
];
// Each row removes one technique from the full ranker.
const leaveOneOut = [
  // Off by default since the idioms round: it tied on the dev split and cost recall elsewhere.
  ['full plus WordNet (sense-filtered)', { wordnet: true }],
  ['full minus SaaS object synonyms', { saas: false }],
  ['full minus jargon supplement', { jargon: false }],
  ['full minus idioms', { idioms: false }],
  ['full minus action classes', { actions: false }],
  ['full minus entities and questions', { entities: false }],
  ['full minus typo correction', { typos: false }],
  ['full minus phrase pairs', { phraseWeight: 0 }],
  ['full, synonyms summed as separate terms', { combine: 'sum' }],
  ['full, first sentence not weighted above rest', { fields: { details: { weight: 1, b: 0.75 } } }],
  // Not a default: the runtime does not pass group descriptions to the index yet (see the report).
  ['full + group descriptions indexed', { groupDescriptions: Object.fromEntries(catalog.groups.map((g) => [g.name, g.description])) }],
];

const dev = intents.filter((i) => i.split === 'dev');
const heldOut = intents.filter((i) => i.split === 'holdout');
const pct = (x) => x.toFixed(2).padStart(5);
const ranker = (spec) => (typeof spec === 'function' ? spec : fromIndex(createToolIndex(tools, spec)));

const pooled = [...intents, ...fresh, ...holdout2, ...holdout3, ...holdout4];
const pooledAll = [...pooled, ...holdout5, ...holdout6, ...holdout7];
console.log(
  `${tools.length} tools; intents.json ${intents.length} (${dev.length} dev, ${heldOut.length} held out), fresh ${fresh.length}, ` +
    `holdout2 ${holdout2.length} (${distinct.length} distinct), holdout3 ${holdout3.length}, holdout4 ${holdout4.length}, holdout5 ${holdout5.length}, holdout6 ${holdout6.length}, holdout7 ${holdout7.length}`,
);
for (const [name, f] of [['intents.json', original], ['intents-fresh.json', freshFile], ['intents-holdout2.json', holdout2File], ['intents-holdout3.json', holdout3File], ['intents-holdout4.json', holdout4File], ['intents-holdout5.json', holdout5File], ['intents-holdout6.json', holdout6File], ['intents-holdout7.json', holdout7File]]) {
  console.log(`  sha256 ${f.sha}  ${name}`);
}
console.log(`\n${'ranker'.padEnd(46)}   all 100    | dev  held-out |  fresh 50   |  holdout2 100  distinct | holdout3 100 | holdout4 100 | holdout5 100 | holdout6 100 | holdout7 100 | pooled 450  750`);
console.log(`${''.padEnd(46)} R@1   R@5  |  R@5   R@5   |  R@1   R@5  |  R@1   R@5   |  R@5    |  R@1   R@5  |  R@1   R@5  |  R@1   R@5  |  R@1   R@5  |  R@1   R@5  |  R@5   R@5`);
function row(label, spec) {
  const fn = ranker(spec);
  const all = recall(fn, intents);
  const f = recall(fn, fresh);
  const h2 = recall(fn, holdout2);
  const h3 = recall(fn, holdout3);
  const h4 = recall(fn, holdout4);
  const h5 = recall(fn, holdout5);
  const h6 = recall(fn, holdout6);
  const h7 = recall(fn, holdout7);
  console.log(
    `${label.padEnd(46)}${pct(all.at1)} ${pct(all.at5)} | ${pct(recall(fn, dev).at5)} ${pct(recall(fn, heldOut).at5)}  | ` +
      `${pct(f.at1)} ${pct(f.at5)} | ${pct(h2.at1)} ${pct(h2.at5)}  | ${pct(recall(fn, distinct).at5)}   | ` +
      `${pct(h3.at1)} ${pct(h3.at5)} | ${pct(h4.at1)} ${pct(h4.at5)} | ${pct(h5.at1)} ${pct(h5.at5)} | ${pct(h6.at1)} ${pct(h6.at5)} | ${pct(h7.at1)} ${pct(h7.at5)} | ${pct(recall(fn, pooled).at5)} ${pct(recall(fn, pooledAll).at5)}`,
  );
}
for (const [label, spec] of cumulative) row(label, spec);
console.log('');
for (const [label, spec] of leaveOneOut) row(label, spec);

// ---------------------------------------------------------------- cost
const queries = pooledAll.map((i) => i.intent);
createToolIndex(tools).rank('warm up');
let t0 = performance.now();
const BUILDS = 50;
for (let i = 0; i < BUILDS; i++) createToolIndex(tools);
const buildMs = (performance.now() - t0) / BUILDS;
for (let r = 0; r < 3; r++) for (const q of queries) fullIndex.rank(q);
const times = [];
for (let r = 0; r < 10; r++) {
  for (const q of queries) {
    t0 = performance.now();
    fullIndex.rank(q);
    times.push(performance.now() - t0);
  }
}
times.sort((a, b) => a - b);
const at = (p) => times[Math.min(times.length - 1, Math.floor(p * times.length))].toFixed(3);
const { terms, postings } = fullIndex.stats();
const kb = (s) => (Buffer.byteLength(s) / 1024).toFixed(0);
console.log(`\nsearch: median ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms per query (${queries.length} queries × 10)`);
console.log(`index: built in ${buildMs.toFixed(1)} ms (mean of ${BUILDS}, tables already loaded); ${terms} terms, ${postings} postings`);
console.log(
  `thesaurus shipped: WordNet ${kb(table.WORDNET_TABLE)} KB, jargon ${kb(table.JARGON_TABLE)} KB, SaaS ${kb(table.SAAS_TABLE)} KB, idioms ${kb(table.IDIOMS_TABLE)} KB, ` +
    `lexicon Bloom filter ${kb(table.LEXICON_BLOOM.data)} KB (base64)`,
);

if (process.argv.includes('--misses')) {
  console.log('\ndev-split misses of the full ranker (expected not in top 5):');
  for (const m of recall(viaSearchTool, dev).misses) {
    console.log(`  #${m.id} [${m.split}] "${m.intent}"\n      expected ${m.expected} (rank ${m.pos < 0 ? 'none' : m.pos + 1}); top: ${m.got.join(', ')}`);
  }
}
