// Prints recall@1 and recall@5 of search_tools ranking over the 100 intents of
// bench/fixtures/intents.json against bench/fixtures/catalog.json, next to a plain BM25 baseline and
// an ablation of each improvement. Figures are printed, never asserted. Columns: the dev split (odd
// ids, allowed to inform tuning), the held-out split (even ids, only ever scored) and
// intents-fresh.json (50 intents written after tuning was frozen).
//
//   npx tsc -p tsconfig.json && node bench/discovery-recall.mjs [--misses]
//
// `--misses` lists the dev-split intents whose expected tool is not in the top 5 (full ranker); the
// held-out split is only ever scored, so that its figure stays an honest estimate.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const { createToolIndex } = await import(`${root}dist/runtime/discovery/toolIndex.js`);
const { searchTools } = await import(`${root}dist/runtime/discovery/searchTools.js`);

const catalog = JSON.parse(readFileSync(`${root}bench/fixtures/catalog.json`, 'utf8'));
const { intents } = JSON.parse(readFileSync(`${root}bench/fixtures/intents.json`, 'utf8'));
const fresh = JSON.parse(readFileSync(`${root}bench/fixtures/intents-fresh.json`, 'utf8')).intents;
const tools = catalog.tools.map((t) => ({ ...t, execute: async () => ({ content: [], isError: false }) }));

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

const variants = [
  ['plain BM25 (name+description, no stemming)', plainBm25(tools)],
  ['BM25F fields + identifier splitting', fromIndex(createToolIndex(tools, { stemming: false, expansion: false }))],
  ['  + stop words + Porter stemming', fromIndex(createToolIndex(tools, { expansion: false }))],
  ['  + WordNet expansion only', fromIndex(createToolIndex(tools, { jargon: false }))],
  ['  + jargon supplement = search_tools default', viaSearchTool],
];

const dev = intents.filter((i) => i.split === 'dev');
const holdout = intents.filter((i) => i.split === 'holdout');
const pct = (x) => x.toFixed(2).padStart(5);
console.log(`${tools.length} tools, ${intents.length} intents (${dev.length} dev, ${holdout.length} held out), ${fresh.length} fresh intents\n`);
console.log(`${'ranker'.padEnd(46)}    all 100   | dev   held-out |   fresh 50`);
console.log(`${''.padEnd(46)} R@1   R@5  |  R@5    R@5   |  R@1   R@5`);
for (const [label, fn] of variants) {
  const all = recall(fn, intents);
  const f = recall(fn, fresh);
  console.log(`${label.padEnd(46)}${pct(all.at1)} ${pct(all.at5)} | ${pct(recall(fn, dev).at5)}  ${pct(recall(fn, holdout).at5)}  | ${pct(f.at1)} ${pct(f.at5)}`);
}

if (process.argv.includes('--misses')) {
  console.log('\ndev-split misses of the full ranker (expected not in top 5):');
  for (const m of recall(viaSearchTool, dev).misses) {
    console.log(`  #${m.id} [${m.split}] "${m.intent}"\n      expected ${m.expected} (rank ${m.pos < 0 ? 'none' : m.pos + 1}); top: ${m.got.join(', ')}`);
  }
}
