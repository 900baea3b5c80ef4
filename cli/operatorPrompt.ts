// Asks the operator at the terminal while a run goes on (run and resume, when stdin and stderr are a
// terminal): an approval shows the tool, its arguments (secrets masked, as all output is), the task
// and agent, and takes y/n and a reason; a question takes a choice, several, a form's fields or text.
// One prompt at a time (the run's desk queues them). End of input leaves the request waiting.

import { createInterface } from 'node:readline/promises';
import type { OperatorPrompt, PromptReply, PromptRequest, QuestionPayload } from '../api/operator.js';
import type { CliIo } from './io.js';

export function terminalPrompt(io: CliIo, input: NodeJS.ReadableStream = process.stdin): OperatorPrompt {
  return {
    async ask(request) {
      const rl = createInterface({ input, output: io.stderr, terminal: true });
      let closed = false;
      rl.on('close', () => (closed = true));
      const read = async (query: string): Promise<string | undefined> => {
        if (closed) return undefined;
        try {
          return (await rl.question(query)).trim();
        } catch {
          return undefined;
        }
      };
      try {
        return await linePrompt(io, read).ask(request);
      } finally {
        rl.close();
      }
    },
  };
}

/**
 * The same prompt over lines the caller reads (`squadron chat` shares its input with it): `read`
 * shows the query and returns the next line, trimmed, or undefined at the end of input.
 */
export function linePrompt(io: CliIo, read: Read): OperatorPrompt {
  return {
    async ask(request) {
      io.stderr.write(`\n${describe(request)}\n`);
      return request.kind === 'approval' ? await approval(read) : await question(request.question ?? { question: '(no question)' }, read);
    },
  };
}

export type Read = (query: string) => Promise<string | undefined>;

function describe(r: PromptRequest): string {
  if (r.kind === 'approval') {
    const args = JSON.stringify(r.input ?? {}, null, 2).split('\n').map((l) => `    ${l}`).join('\n');
    return `── approval needed (${r.id}) ──\n  task ${r.task} · agent ${r.agent} · tool ${r.tool}${r.via ? ` (needs approval: ${r.via === 'tool' ? 'its tool block' : r.via})` : ''}\n  arguments:\n${args}`;
  }
  return `── question (${r.id}) ──\n  task ${r.task} · agent ${r.agent} · from ${r.tool}\n  ${r.question?.question ?? ''}`;
}

async function approval(read: Read): Promise<PromptReply | undefined> {
  for (;;) {
    const yn = await read('approve this call? [y/n] ');
    if (yn === undefined) return undefined;
    if (/^y(es)?$/i.test(yn)) return { status: 'approved' };
    if (/^no?$/i.test(yn)) {
      const reason = await read('reason (the model reads it): ');
      if (reason === undefined) return undefined;
      return { status: 'denied', reason: reason || 'denied by the operator' };
    }
  }
}

async function question(q: QuestionPayload, read: Read): Promise<PromptReply | undefined> {
  if (q.fields) {
    const fields: Record<string, unknown> = {};
    for (const [name, f] of Object.entries(q.fields)) {
      const required = q.required?.includes(name) ?? false;
      const hint = [f.type, f.enum ? `one of ${f.enum.join(', ')}` : '', f.description ?? '', required ? 'required' : 'optional'].filter(Boolean).join(' · ');
      for (;;) {
        const value = await read(`  ${f.title ?? name} (${hint}): `);
        if (value === undefined) return undefined;
        if (value === '' && !required) break;
        if (value === '') continue;
        fields[name] = f.type === 'number' || f.type === 'integer' ? Number(value) : f.type === 'boolean' ? /^(y|yes|true)$/i.test(value) : value;
        break;
      }
    }
    return { status: 'answered', answer: { fields } };
  }
  if (q.choices) {
    const list = q.choices.map((c, i) => `    ${i + 1}) ${c}`).join('\n');
    for (;;) {
      const picked = await read(`${list}\n  ${q.multi_select ? 'choose (numbers separated by commas)' : 'choose a number'}, or "-" to decline: `);
      if (picked === undefined) return undefined;
      if (picked === '-') return { status: 'declined' };
      const numbers = picked.split(',').map((s) => Number(s.trim()));
      const valid = numbers.length > 0 && numbers.every((n) => Number.isInteger(n) && n >= 1 && n <= q.choices!.length) && (q.multi_select || numbers.length === 1);
      if (valid) return { status: 'answered', answer: { choices: [...new Set(numbers)].map((n) => q.choices![n - 1]!) } };
    }
  }
  for (;;) {
    const text = await read('  answer (or "-" to decline): ');
    if (text === undefined) return undefined;
    if (text === '-') return { status: 'declined' };
    if (text !== '') return { status: 'answered', answer: { text } };
  }
}

/** The prompt when a person is at this terminal (stdin and stderr both a terminal), else none: requests wait. */
export function promptIfTerminal(io: CliIo): { operatorPrompt?: OperatorPrompt } {
  return process.stdin.isTTY && io.stderrIsTTY ? { operatorPrompt: terminalPrompt(io) } : {};
}
