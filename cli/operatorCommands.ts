// What `approve`, `deny` and `answer` share: open the database that holds the run, record the
// decision (api/decide.ts checks it), and print what was decided and the command that
// continues the run (with --json: one document with the requests decided, those still waiting and
// that command). They never continue it themselves: resume may need the run's secret variables
// again, and a script that approves several calls resumes once.

import type { DecideAction } from '../api/decide.js';
import { CliError, type CliIo } from './io.js';
import { writeJson } from './json.js';
import { requestJson } from '../api/requestJson.js';
import { findRunDatabase, storeCommand } from './databaseAccess.js';

export async function recordDecision(io: CliIo, runId: string, flags: { db?: string | undefined; json?: boolean | undefined }, action: DecideAction): Promise<void> {
  const { db } = flags;
  const [{ decide, operatorName, waitingRequests }, { SquadronError }, { openRunStore }] = await Promise.all([import('../api/decide.js'), import('../api/errors.js'), import('../api/runStore.js')]);
  // Found read-only first (as inspect does), then opened for writing: only the database holding the run.
  const path = await findRunDatabase(io, db, runId);
  const store = await openRunStore(path);
  let resume: string;
  try {
    let decided;
    try {
      decided = await decide(store, runId, action, operatorName(io.env));
    } catch (error) {
      if (error instanceof SquadronError) throw new CliError(error.message, error.code === 'not_found' || error.code === 'refused' || error.code === 'usage' ? error.code : 'usage');
      throw error;
    }
    resume = storeCommand(io, 'resume', runId, path);
    const left = await waitingRequests(store, runId);
    if (flags.json) {
      writeJson(io, { run_id: runId, decided: decided.map(requestJson), still_waiting: left.map(requestJson), resume_command: resume });
      return;
    }
    for (const r of decided) {
      const why = r.reason ? `: ${r.reason}` : '';
      io.stdout.write(`${r.id} ${r.status} by ${r.decidedBy} (${r.toolRef}, task ${r.task})${why}\n`);
    }
    if (left.length > 0) io.stdout.write(`still waiting: ${left.map((r) => r.id).join(', ')}\n`);
    io.stdout.write(`continue the run with: ${resume}\n`);
  } finally {
    await store.close();
  }
}
