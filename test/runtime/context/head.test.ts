// Unit tests of the context policy's defaults and of the head a cut sends instead of the dropped
// messages: the task verbatim (the newest instruction dropped), tools used with counts, earlier answers
// cut at 200 characters, the summary when there is one; pruning repeats the task with a note.

import { describe, expect, it } from 'vitest';
import type { SessionMessage } from '../../../runtime/session/sessionTypes.js';
import { commanderState } from '../../../runtime/context/commanderState.js';
import { compactedHead, prunedHead } from '../../../runtime/context/head.js';
import { contextPolicy, defaultTokenLimit } from '../../../runtime/context/policy.js';
import { requestInputTokens } from '../../../runtime/context/sessionContext.js';

const dropped: SessionMessage[] = [
  { role: 'user', parts: [{ type: 'text', text: 'First task.' }], kind: 'instruction' },
  { role: 'assistant', parts: [{ type: 'tool_use', id: 'a', name: 'builtins_http_get', input: {} }] },
  { role: 'user', parts: [{ type: 'tool_result', toolUseId: 'a', content: [{ type: 'text', text: 'page' }], isError: false }], kind: 'tool_results' },
  { role: 'assistant', parts: [{ type: 'text', text: `Answer one. ${'x'.repeat(300)}` }] },
  { role: 'user', parts: [{ type: 'text', text: 'Second task, with an image.' }, { type: 'image', mediaType: 'image/png', data: 'AAAA' }], kind: 'instruction' },
  { role: 'assistant', parts: [{ type: 'thinking', text: 'hm', signature: 's' }, { type: 'tool_use', id: 'b', name: 'builtins_http_get', input: {} }, { type: 'tool_use', id: 'c', name: 'mcp_db_query', input: {} }] },
  { role: 'user', parts: [{ type: 'tool_result', toolUseId: 'b', content: [], isError: false }, { type: 'tool_result', toolUseId: 'c', content: [], isError: true }], kind: 'tool_results' },
];

describe('the head of a cut', () => {
  it('compaction: the newest dropped instruction verbatim, tools with counts, answers cut at 200 characters, the summary', () => {
    const head = compactedHead(dropped, { summary: 'Pages were read.' });
    const text = (head[0] as { text: string }).text;
    expect(text.startsWith('<COMPACTED_CONTEXT>\nMessages 1 to 7 of this conversation were compacted')).toBe(true);
    expect(text).toContain('## Task\nSecond task, with an image.\n');
    expect(text).toContain('## Tools used so far\n- builtins_http_get (2×)\n- mcp_db_query (1×)\n');
    expect(text).toContain(`## Earlier answers\n- Answer one. ${'x'.repeat(188)}…\n`);
    expect(text).toContain('## Summary of the compacted messages\nPages were read.\n</COMPACTED_CONTEXT>');
    expect(head[1]).toEqual({ type: 'image', mediaType: 'image/png', data: 'AAAA' });
  });

  it('compaction without a summary has no summary section', () => {
    expect((compactedHead(dropped)[0] as { text: string }).text).not.toContain('## Summary');
  });

  it('pruning: the task verbatim, then a note naming the dropped messages', () => {
    const text = (prunedHead(dropped)[0] as { text: string }).text;
    expect(text).toBe('Second task, with an image.\n\n(Messages 1 to 7 of this conversation were pruned to keep it inside the context window; the task above is repeated from it, and the messages after this one are verbatim.)');
  });
});

describe('the context policy', () => {
  it('defaults to room for the reply, then 80% of the window, and 4 kept turns', () => {
    expect(defaultTokenLimit(200_000, 8192)).toBe(153_446);
    const policy = contextPolicy({ via: 'agent' }, { contextWindow: 32_000, contextWindowVia: 'default', maxOutputTokens: 8192 });
    expect(policy).toEqual({ window: 32_000, windowVia: 'default', replyRoom: 8192, compaction: { tokenLimit: 19_046, turnRetention: 4, summarize: false, via: 'default' } });
  });

  it("takes the block's figures and names the block", () => {
    const policy = contextPolicy(
      { settings: { compaction: { turnRetention: 2 }, pruning: { pruneOn: 5, pruneTo: 2 } }, via: 'agent_defaults' },
      { contextWindow: 200_000, contextWindowVia: 'catalog', maxOutputTokens: 8192 },
    );
    expect(policy.compaction).toEqual({ tokenLimit: 153_446, turnRetention: 2, summarize: false, via: 'agent_defaults' });
    expect(policy.pruning).toEqual({ pruneOn: 5, pruneTo: 2, via: 'agent_defaults' });
  });

  it('counts every input token of a request, cached ones included', () => {
    expect(requestInputTokens({ inputTokens: 100, cacheReadTokens: 90_000, cacheWriteTokens: 2_000, outputTokens: 50 })).toBe(92_100);
  });
});

describe("a commander's state in its compacted head", () => {
  const commanderDropped: SessionMessage[] = [
    { role: 'user', parts: [{ type: 'text', text: 'Review the release.' }], kind: 'instruction' },
    {
      role: 'assistant',
      parts: [
        { type: 'tool_use', id: 'a', name: 'call_agent', input: { name: 'tester', task: 'Run   the\nsuite.' } },
        { type: 'tool_use', id: 'b', name: 'call_agent', input: { name: 'writer', task: 'Draft notes.' } },
      ],
    },
    {
      role: 'user',
      parts: [
        { type: 'tool_result', toolUseId: 'a', content: [{ type: 'text', text: JSON.stringify({ agent_id: 'tester', status: 'answered', answer: 'All 40 tests pass.' }) }], isError: false },
        { type: 'tool_result', toolUseId: 'b', content: [{ type: 'text', text: JSON.stringify({ agent_id: 'writer', status: 'failed', error: 'turn limit reached' }) }], isError: true },
      ],
      kind: 'tool_results',
    },
    { role: 'assistant', parts: [{ type: 'tool_use', id: 'c', name: 'ask_agent', input: { agent_id: 'tester', question: 'Which suite?' } }] },
    { role: 'user', parts: [{ type: 'tool_result', toolUseId: 'c', content: [{ type: 'text', text: JSON.stringify({ agent_id: 'tester', status: 'answered', answer: 'The integration suite.' }) }], isError: false }], kind: 'tool_results' },
  ];

  it('lists each agent call with its outcome, the output, and what is still open, the same each time', () => {
    const state = commanderState(commanderDropped, ['call_agent', 'ask_agent', 'submit_output', 'task_complete']);
    expect(state).toBe(
      [
        'Agents called (3):',
        '- tester (task: "Run the suite.") → answered: "All 40 tests pass."',
        '- writer (task: "Draft notes.") → failed: "turn limit reached"',
        '- tester (asked: "Which suite?") → answered: "The integration suite."',
        'Output: not submitted yet.',
        'Still open: submit_output; 1 agent call failed (see above); task_complete.',
      ].join('\n'),
    );
    expect(commanderState(commanderDropped, ['call_agent', 'submit_output', 'task_complete'])).toBe(state);
    const head = (compactedHead(commanderDropped, { state })[0] as { text: string }).text;
    expect(head).toContain(`## Task\nReview the release.\n\n## Commander State\n${state}\n\n## Tools used so far`);
  });

  it('shows a submitted output and a sequential dataset position', () => {
    const submitted: SessionMessage[] = [
      ...commanderDropped,
      { role: 'assistant', parts: [{ type: 'tool_use', id: 'd', name: 'submit_output', input: { output: { verdict: 'ship' } } }] },
      { role: 'user', parts: [{ type: 'tool_result', toolUseId: 'd', content: [{ type: 'text', text: '{"status":"ok"}' }], isError: false }], kind: 'tool_results' },
    ];
    expect(commanderState(submitted, ['submit_output'])).toContain('Output: submitted {"verdict":"ship"}.');
    expect(commanderState([commanderDropped[0]!], ['dataset_next'])).toBe('Agents called: none yet.\nDataset items taken: 0.\nStill open: task_complete.');
  });
});
