import { describe, expect, it } from 'vitest';
import { ACTION_PREFIX, actionClasses } from '../../../runtime/discovery/thesaurus/actions.js';
import { createToolIndex } from '../../../runtime/discovery/toolIndex.js';
import { makeTools } from './makeTool.js';

describe('action classes', () => {
  it('puts the verbs that name one operation in one class (PowerShell approved verbs, CRUD)', () => {
    expect(actionClasses('erase')).toContain(`${ACTION_PREFIX}remove`);
    expect(actionClasses('delete')).toContain(`${ACTION_PREFIX}remove`);
    expect(actionClasses('cancel')).toContain(`${ACTION_PREFIX}stop`);
    expect(actionClasses('create')).toEqual(expect.arrayContaining([`${ACTION_PREFIX}create`, `${ACTION_PREFIX}new`]));
    expect(actionClasses('list')).toContain(`${ACTION_PREFIX}get`);
  });

  it('finds the classes of an inflected verb and has none for a non-verb', () => {
    expect(actionClasses('erased')).toEqual(actionClasses('erase'));
    expect(actionClasses('invoice')).toEqual([]);
  });

  it("ranks the tool whose verb is in the query verb's class first", () => {
    const tools = makeTools([
      { ref: 'tools.files_delete_file', group: 'files', description: 'Delete a file.' },
      { ref: 'tools.files_share_file', group: 'files', description: 'Share a file.' },
    ]);
    const off = createToolIndex(tools, { actions: false, expansion: false });
    const on = createToolIndex(tools, { expansion: false });
    const names = (index: ReturnType<typeof createToolIndex>) => index.rank('discard the file').map((r) => r.tool.apiName);
    expect(names(off)).toEqual(['tools_files_delete_file', 'tools_files_share_file'].sort());
    expect(names(on)[0]).toBe('tools_files_delete_file');
    expect(on.rank('discard the file')[0]?.score).toBeGreaterThan(on.rank('discard the file')[1]?.score ?? 0);
  });

  it('reads a class only from a word in a verb slot, not from a noun', () => {
    const tools = makeTools([
      { ref: 'tools.hr_request_leave', group: 'hr', description: 'Ask for days off.' },
      { ref: 'tools.hr_approve_leave', group: 'hr', description: 'Approve days off.' },
    ]);
    const index = createToolIndex(tools, { expansion: false });
    // "approve" is the verb; "request" is a noun here and must not count as the action "request".
    const ranked = index.rank("approve Tom's leave request");
    expect(ranked.map((r) => r.tool.apiName)).toEqual(['tools_hr_approve_leave', 'tools_hr_request_leave']);
    const withoutClasses = createToolIndex(tools, { expansion: false, actions: false }).rank("approve Tom's leave request");
    // The verb's class widens the lead that the typed verb alone gives.
    expect((ranked[0]?.score ?? 0) - (ranked[1]?.score ?? 0)).toBeGreaterThan((withoutClasses[0]?.score ?? 0) - (withoutClasses[1]?.score ?? 0));
  });
});
