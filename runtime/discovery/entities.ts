// Recognizes things a query names by their shape rather than by a word: a URL, an e-mail address, a
// file name or path, a #channel or an @mention, an SQL statement. Each yields the word that tools use
// for that kind of thing ("./notes/todo.md" → file), because the words of the thing itself
// ("notes", "todo", "md") say nothing about which tool handles it. Questions ("which…", "what…")
// yield a marker that the query asks to read, not to change.

/** Extensions of common file types: documents, data, images, archives, source code, configuration. */
const FILE_EXTENSIONS = new Set(
  `md markdown txt rtf pdf doc docx odt xls xlsx ods ppt pptx odp csv tsv json jsonl yaml yml toml ini cfg
  conf env xml html htm css scss js mjs cjs ts tsx jsx py rb go rs java kt swift c h cpp hpp cs php sh bash
  zsh ps1 sql db sqlite log lock png jpg jpeg gif svg webp bmp ico tif tiff mp3 wav mp4 mov avi mkv webm
  zip tar gz tgz bz2 xz 7z rar jar war whl deb rpm dmg iso bak tmp key pem crt ipynb parquet`.split(/\s+/),
);

const QUESTION_RE = /^\s*(?:what|which|who|whom|whose|where|when|how|is there|are there|do we have|does|did|has|have)\b|\?\s*$/i;
const SQL_RE = /\b(?:select\b[\s\S]+\bfrom|insert\s+into|update\s+\w+\s+set|delete\s+from)\b/i;
const ORDER = ['url', 'email', 'file', 'pattern', 'directory', 'channel', 'user', 'sql'] as const;

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
  const text = query
    .split(/(\s+)/)
    .map((raw) => {
      const token = raw.replace(/^["'`(<\[]+|["'`)>\],;:!?]+$/g, '').replace(/\.$/, '');
      const kind = token ? classify(token) : undefined;
      if (!kind) return raw;
      found.add(kind);
      if (kind === 'file' && /[*?]/.test(token)) found.add('pattern');
      // Surrounding punctuation stays: a comma after a path still ends a clause.
      const at = raw.indexOf(token);
      return raw.slice(0, at) + kind + raw.slice(at + token.length);
    })
    .join('');
  if (SQL_RE.test(query)) found.add('sql');
  return { text, words: ORDER.filter((w) => found.has(w)), question: QUESTION_RE.test(query) };
}

function classify(token: string): string | undefined {
  if (/^(?:https?:\/\/|www\.)\S+$/i.test(token)) return 'url';
  if (/^[\w.+-]+@[\w-]+(?:\.[\w-]+)+$/.test(token)) return 'email';
  const file = /^[~.\/\w@*?-]*\.([a-z0-9]{1,8})$/i.exec(token);
  if (file && FILE_EXTENSIONS.has((file[1] ?? '').toLowerCase())) return 'file';
  if (/^(?:~|\.{1,2})?\/[\w@.\/-]*$/.test(token) || /^[\w@.-]+\/$/.test(token)) return 'directory';
  if (/^#[a-z][\w-]*$/i.test(token)) return 'channel';
  if (/^@[a-z][\w.-]*$/i.test(token)) return 'user';
  return undefined;
}
