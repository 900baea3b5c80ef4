// `squadron answer <run-id> [--question ID] "text" | --choice C… | --field name=value… | --decline`:
// answers a question a run waits on (builtins.human.ask, an MCP server's elicitation); `resume`
// gives the answer to the model (or to the server) as the result.

import type { Command } from 'commander';
import { CliError, collect, parseKeyValues, type CliIo } from '../io.js';
import { recordDecision } from '../operatorCommands.js';
import { DB_OPTION_HELP } from '../databaseAccess.js';
import { JSON_FLAG_HELP } from '../json.js';
import type { OperatorAnswer } from '../../api/decide.js';

interface AnswerFlags {
  question?: string;
  choice: string[];
  field: string[];
  decline?: boolean;
  reason?: string;
  db?: string;
  json?: boolean;
}

export function register(program: Command, io: CliIo): void {
  program
    .command('answer')
    .description('Answer a question a run waits on (then `squadron resume` continues with it)')
    .argument('<run-id>', 'the waiting run (see `squadron runs`)')
    .argument('[text]', 'the answer, as free text')
    .option('--question <id>', 'the question (q_…, as run and runs print it); optional when only one waits')
    .option('--choice <choice>', 'one of the question\'s choices (repeatable when it allows several)', collect, [])
    .option('--field <name=value>', "a field of a server's form (repeatable; numbers and true/false are read as such)", collect, [])
    .option('--decline', 'decline to answer (the model or server is told so)')
    .option('--reason <text>', 'with --decline: why')
    .option('--db <path>', DB_OPTION_HELP)
    .option('--json', JSON_FLAG_HELP)
    .action(async (runId: string, text: string | undefined, flags: AnswerFlags) => {
      const given = [text !== undefined, flags.choice.length > 0, flags.field.length > 0, Boolean(flags.decline)].filter(Boolean).length;
      if (given !== 1) throw new CliError('give exactly one of: the answer text, --choice, --field or --decline', 'usage');
      const id = flags.question ? { id: flags.question } : {};
      if (flags.decline) {
        await recordDecision(io, runId, flags, { kind: 'decline', ...id, ...(flags.reason ? { reason: flags.reason } : {}) });
        return;
      }
      const answer: OperatorAnswer =
        text !== undefined ? { text } : flags.choice.length > 0 ? { choices: flags.choice } : { fields: fieldValues(parseKeyValues(flags.field, '--field')) };
      await recordDecision(io, runId, flags, { kind: 'answer', ...id, answer });
    });
}

function fieldValues(raw: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw)) out[k] = v === 'true' ? true : v === 'false' ? false : v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v;
  return out;
}
