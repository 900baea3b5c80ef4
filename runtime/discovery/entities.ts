// Recognizes things a query names by their shape rather than by a word: a URL, an e-mail address, a
// file name or path, a #channel or an @mention, an SQL statement, an owner/repo name, a phone number,
// a record id ("ev_9921", "INV-2041"). Each yields the word that tools use for that kind of thing
// ("./notes/todo.md" → file), because the words of the thing itself ("notes", "todo", "md") say
// nothing about which tool handles it; an id whose prefix is a common abbreviation yields that word
// ("ev_…" → event), any other id nothing. Questions ("which…", "what…") yield a marker that the query
// asks to read, not to change.

/** Extensions of common file types: documents, data, images, archives, source code, configuration. */
const FILE_EXTENSIONS = new Set(
  `md markdown txt rtf pdf doc docx odt xls xlsx ods ppt pptx odp csv tsv json jsonl yaml yml toml ini cfg
  conf env xml html htm css scss js mjs cjs ts tsx jsx py rb go rs java kt swift c h cpp hpp cs php sh bash
  zsh ps1 sql db sqlite log lock png jpg jpeg gif svg webp bmp ico tif tiff mp3 wav mp4 mov avi mkv webm
  zip tar gz tgz bz2 xz 7z rar jar war whl deb rpm dmg iso bak tmp key pem crt ipynb parquet`.split(/\s+/),
);

const QUESTION_RE = /^\s*(?:what|which|who|whom|whose|where|when|how|is there|are there|do we have|does|did|has|have)\b|\?\s*$/i;
const SQL_RE = /\b(?:select\b[\s\S]+\bfrom|insert\s+into|update\s+\w+\s+set|delete\s+from)\b/i;
const ORDER = ['url', 'email', 'file', 'multiple', 'pattern', 'directory', 'channel', 'user', 'sql', 'repository', 'phone'] as const;

/**
 * Prefixes of record ids that abbreviate one kind of thing the same way across products (Stripe's
 * `cus_`, `in_`, `sub_`; calendar `ev_`; tracker `tkt-`). Single letters and prefixes with rival
 * readings (`ch`: channel or charge, `t`: task or ticket) are left out: such an id only loses its words.
 */
const ID_PREFIXES: Readonly<Record<string, string>> = {
  ev: 'event', evt: 'event', inv: 'invoice', in: 'invoice', sub: 'subscription', cus: 'customer', cust: 'customer',
  ct: 'contact', cnt: 'contact', co: 'company', cmp: 'company', org: 'organization', dl: 'deal', deal: 'deal',
  tkt: 'ticket', tk: 'ticket', tix: 'ticket', prj: 'project', proj: 'project', tsk: 'task', task: 'task',
  emp: 'employee', doc: 'document', fi: 'file', fil: 'file', file: 'file', fld: 'folder', dir: 'folder',
  msg: 'message', pr: 'pull request', pay: 'payment', pmt: 'payment', py: 'payment', rpt: 'report', cal: 'calendar',
  rm: 'room', pto: 'time off', lv: 'leave', usr: 'user', acct: 'account', acc: 'account', ord: 'order', rf: 'refund',
};

/** Things a query names that are spread over several words, found on the whole text first. */
const PHONE_RE = /(?<![\w.,])(?:\+\d{1,3}[\s.-]?(?:\(?\d{1,4}\)?[\s.-]?){2,5}\d{2,4}|\(?\d{3}\)?[\s.-]\d{3}[\s.-]\d{4})(?![\w.,]\d)/g;

export interface QueryEntities {
  /** The query with each recognized thing replaced by its word: its own words name it, not the need. */
  text: string;
  /** Words standing for recognized things, e.g. ["file", "url"]; without duplicates, in a fixed order. */
  words: string[];
  /** Whether the query is a question, i.e. asks to read rather than to change. */
  question: boolean;
}

export function recognizeEntities(query: string): QueryEntities {
  const found = new Set<string>();
  let fileCount = 0;
  const phoneless = query.replace(PHONE_RE, (match) => {
    // An international number (+39 347 555 0192) or a North American one ((415) 555-0134).
    if (match.replace(/\D/g, '').length < 9) return match;
    found.add('phone');
    return 'phone';
  });
  const text = phoneless
    .split(/(\s+)/)
    .map((raw) => {
      const token = raw.replace(/^["'`(<\[]+|["'`)>\],;:!?]+$/g, '').replace(/\.$/, '');
      const id = token ? recordId(token) : undefined;
      if (id !== undefined) {
        const at = raw.indexOf(token);
        return raw.slice(0, at) + id + raw.slice(at + token.length);
      }
      const kind = token ? classify(token) : undefined;
      if (!kind) return raw;
      found.add(kind);
      if (kind === 'file') fileCount++;
      if (kind === 'file' && /[*?]/.test(token)) found.add('pattern');
      // Surrounding punctuation stays: a comma after a path still ends a clause.
      const at = raw.indexOf(token);
      return raw.slice(0, at) + kind + raw.slice(at + token.length);
    })
    .join('');
  if (SQL_RE.test(query)) found.add('sql');
  // Several files named at once ask for a tool that takes several.
  if (fileCount >= 2) found.add('multiple');
  return { text, words: ORDER.filter((w) => found.has(w)), question: QUESTION_RE.test(query) };
}

function classify(token: string): string | undefined {
  if (/^(?:https?:\/\/|www\.)\S+$/i.test(token)) return 'url';
  // A whole address, a domain written as "@acme.com", or a handle written as "mia@".
  if (/^[\w.+-]*@[\w-]+(?:\.[\w-]+)+$/.test(token) || /^[\w.+-]+@$/.test(token)) return 'email';
  const file = /^[~.\/\w@*?-]*\.([a-z0-9]{1,8})$/i.exec(token);
  if (file && FILE_EXTENSIONS.has((file[1] ?? '').toLowerCase())) return 'file';
  if (/^(?:~|\.{1,2})?\/[\w@.\/-]*$/.test(token) || /^[\w@.-]+\/$/.test(token)) {
    // A path whose last part has a dot inside ("/srv/app/.env.staging", "/opt/app.conf.bak") names a file.
    return /\/\.?[\w@-]+\.[\w.@-]+$/.test(token) ? 'file' : 'directory';
  }
  if (/^#[a-z][\w-]*$/i.test(token)) return 'channel';
  if (/^@[a-z][\w.-]*$/i.test(token)) return 'user';
  // owner/name, optionally with an issue or pull request number: a repository, not a path.
  if (/^[a-z0-9][\w.-]*\/[a-z0-9][\w.-]*(?:#\d+)?$/i.test(token) && /[a-z]/i.test(token)) return 'repository';
  return undefined;
}

/**
 * The word for a record id ("ev_9921" → event, "INV-2041" → invoice), '' for an id whose prefix says
 * nothing, undefined for a token that is not an id: up to five letters, then `_` or `-`, then a code
 * holding at least two digits.
 */
function recordId(token: string): string | undefined {
  const m = /^([a-z]{1,5})[_-]([a-z0-9]+(?:-[a-z0-9]+)*)$/i.exec(token);
  // Two digits at least, so "sev-1", "gpt-4" and "utf-8" keep their words.
  if (!m || ((m[2] ?? '').match(/\d/g) ?? []).length < 2) return undefined;
  return ID_PREFIXES[(m[1] ?? '').toLowerCase()] ?? '';
}
