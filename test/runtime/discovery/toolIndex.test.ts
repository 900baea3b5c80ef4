import { describe, expect, it } from 'vitest';
import { createToolIndex } from '../../../runtime/discovery/toolIndex.js';
import { makeTools, sampleCatalog } from './makeTool.js';

const names = (index: ReturnType<typeof createToolIndex>, query: string, group?: string) =>
  index.rank(query, group).map((r) => r.tool.apiName);

describe('createToolIndex ranking', () => {
  it('finds a tool through its split name and stemmed description words', () => {
    const index = createToolIndex(sampleCatalog());
    expect(names(index, 'merging pull requests')[0]).toBe('mcp_github_merge_pull_request');
    expect(names(index, 'refunds')[0]).toBe('tools_billing_issue_refund');
  });

  it('ranks a match in the name above the same word in a parameter description', () => {
    const index = createToolIndex(
      makeTools([
        { ref: 'tools.archive_note', group: 'notes', description: 'Move a note out of sight.', params: { reason: 'Why the ledger entry is archived.' } },
        { ref: 'tools.ledger_totals', group: 'books', description: 'Sum the amounts.', params: { period: 'Month.' } },
      ]),
    );
    expect(names(index, 'ledger')).toEqual(['tools_ledger_totals', 'tools_archive_note']);
  });

  it('changes the ranking through WordNet expansion, with expanded terms weighing less than typed ones', () => {
    const tools = makeTools([
      {
        ref: 'tools.records_delete',
        group: 'records',
        description: 'Delete a stored record permanently from the archive, including its history, attachments and audit trail.',
      },
      { ref: 'tools.records_share', group: 'records', description: 'Share a record.' },
    ]);
    // Action classes would also link erase to delete; they are switched off to isolate WordNet.
    const plain = createToolIndex(tools, { expansion: false, actions: false });
    // WordNet is off by default (see RankingOptions.wordnet); switched on here to test it.
    const expanded = createToolIndex(tools, { jargon: false, saas: false, idioms: false, actions: false, wordnet: true });
    // Without the thesaurus only "record" matches, and the shorter description wins.
    expect(names(plain, 'erase the record')).toEqual(['tools_records_share', 'tools_records_delete']);
    // WordNet puts erase and delete in one synset.
    expect(names(expanded, 'erase the record')).toEqual(['tools_records_delete', 'tools_records_share']);
    // Typing the tool's own word scores higher than reaching it through a synonym.
    const typed = expanded.rank('delete the record')[0]?.score ?? 0;
    const synonym = expanded.rank('erase the record')[0]?.score ?? 0;
    expect(typed).toBeGreaterThan(synonym);
  });

  it('returns only matching tools for a query, best first, and nothing for unknown words', () => {
    const index = createToolIndex(sampleCatalog());
    expect(index.rank('xyzzy qwghlm')).toEqual([]);
    const scores = index.rank('invoice').map((r) => r.score);
    expect(scores.length).toBeGreaterThan(0);
    expect(scores.every((s) => s > 0)).toBe(true);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it('is deterministic: input order does not matter and ties are broken by API name', () => {
    const twins = makeTools([
      { ref: 'tools.zeta_export', group: 'g', description: 'Export the report.' },
      { ref: 'tools.alpha_export', group: 'g', description: 'Export the report.' },
      { ref: 'tools.mid_export', group: 'g', description: 'Export the report.' },
    ]);
    const a = createToolIndex(twins);
    const b = createToolIndex([...twins].reverse());
    expect(names(a, 'report')).toEqual(['tools_alpha_export', 'tools_mid_export', 'tools_zeta_export']);
    expect(a.rank('export report')).toEqual(b.rank('export report'));
    const catalog = sampleCatalog();
    expect(createToolIndex(catalog).rank('create issue contact')).toEqual(createToolIndex([...catalog].reverse()).rank('create issue contact'));
  });

  it('enumerates a whole group with a group filter, matching tools first, then by name', () => {
    const index = createToolIndex(sampleCatalog());
    expect(names(index, '', 'billing')).toEqual(['tools_billing_create_invoice', 'tools_billing_issue_refund', 'tools_billing_void_invoice']);
    expect(names(index, 'refund', 'billing')).toEqual(['tools_billing_issue_refund', 'tools_billing_create_invoice', 'tools_billing_void_invoice']);
    expect(names(index, 'refund', 'no.such.group')).toEqual([]);
  });

  it('indexes group descriptions when given, for groups that have tools', () => {
    const tools = makeTools([
      { ref: 'tools.kb_get', group: 'kb', description: 'Get a page by ID.' },
      { ref: 'tools.cms_get', group: 'cms', description: 'Get a page by ID.' },
    ]);
    const index = createToolIndex(tools, { groupDescriptions: { kb: 'Internal handbook', other: 'handbook' } });
    expect(names(index, 'handbook page')[0]).toBe('tools_kb_get');
    expect(createToolIndex(tools).rank('handbook')).toEqual([]);
  });

  it('tolerates a misspelling that neither the tools nor the dictionary know', () => {
    const catalog = sampleCatalog();
    expect(names(createToolIndex(catalog), 'refnud a paymnet')[0]).toBe('tools_billing_issue_refund');
    expect(names(createToolIndex(catalog, { typos: false }), 'refnud a paymnet')).toEqual([]);
  });

  it('reads a file path in the query as "file" rather than as the words of the path', () => {
    const tools = makeTools([
      { ref: 'mcp.fs.read_file', description: 'Read a file from disk.' },
      { ref: 'tools.notes_get_note', group: 'notes', description: 'Get a todo note.' },
    ]);
    expect(names(createToolIndex(tools), 'show me ./notes/todo.md')[0]).toBe('mcp_fs_read_file');
    expect(names(createToolIndex(tools, { entities: false }), 'show me ./notes/todo.md')[0]).toBe('tools_notes_get_note');
  });

  it('matches a brand written in mixed case ("GitHub") to the group that names it in lower case', () => {
    const tools = makeTools([
      { ref: 'mcp.github.create_issue', description: 'Create a new issue in a repository.' },
      { ref: 'mcp.bitbucket.create_issue', description: 'Create an issue in a Bitbucket project.' },
    ]);
    expect(names(createToolIndex(tools), 'file a GitHub issue')[0]).toBe('mcp_github_create_issue');
  });

  it('looks tools up by API name or ref and knows nothing else', () => {
    const index = createToolIndex(sampleCatalog());
    expect(index.lookup('mcp_github_create_issue')?.ref).toBe('mcp.github.create_issue');
    expect(index.lookup('mcp.github.create_issue')?.apiName).toBe('mcp_github_create_issue');
    expect(index.lookup('mcp_github_delete_repo')).toBeUndefined();
    expect(index.size).toBe(9);
  });

  it('lists its groups by name with counts', () => {
    expect(createToolIndex(sampleCatalog()).groups()).toEqual([
      { name: 'billing', count: 3 },
      { name: 'crm', count: 3 },
      { name: 'mcp.github', count: 3 },
    ]);
  });

  it('refuses two tools with one API name (a registry bug, not a user error)', () => {
    const clash = makeTools([
      { ref: 'mcp.a_b.c', description: 'x' },
      { ref: 'mcp.a.b_c', description: 'y' },
    ]);
    expect(() => createToolIndex(clash)).toThrow(/mcp_a_b_c/);
  });
});
