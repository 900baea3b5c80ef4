// The model's side of the quickstart conversation, used to (re)record examples/quickstart/cassette.jsonl
// against the fake model server. Replies are keyed by agent and turn (see turnScript.ts).

import { callAgent, lastToolResult, taskComplete, toolCall, turnScript, type TurnScript } from './turnScript.js';

const FACTS = [
  '- Tide pools form where the sea leaves water trapped in rock hollows at low tide.',
  '- Their animals survive twice-daily swings in temperature, salinity and oxygen.',
  '- Sea stars, anemones, hermit crabs and limpets are common tide pool residents.',
].join('\n');

export function quickstartScript(): TurnScript {
  return turnScript({
    'commander of task "research"': [
      callAgent('worker', 'Write three short, accurate facts about tide pools to notes/facts.md as a Markdown list (one "- " line per fact), then list the notes folder to confirm the file is there.'),
      (req) => {
        const reply = JSON.parse(lastToolResult(req)) as { answer: string };
        return taskComplete(`Wrote notes/facts.md with three facts about tide pools. Worker's report: ${reply.answer}`);
      },
    ],
    'worker agent of task "research"': [
      toolCall('builtins_files_write', { path: 'notes/facts.md', content: `${FACTS}\n` }),
      toolCall('builtins_files_list', { path: 'notes' }),
      (req) => ({ text: `Done. notes/facts.md now holds three facts; the folder listing shows: ${lastToolResult(req).trim()}` }),
    ],
    'commander of task "review"': [
      callAgent('worker', 'Read notes/facts.md. Tell me how many facts (list items) it holds and propose a one-line headline for them.'),
      (req) => {
        const reply = JSON.parse(lastToolResult(req)) as { answer: string };
        const count = (reply.answer.match(/(\d+) facts/) ?? [])[1] ?? '0';
        return {
          toolCalls: [
            { name: 'submit_output', input: { output: { fact_count: Number(count), headline: 'Tide pools: tough little worlds between the tides' } } },
            { name: 'task_complete', input: { summary: `notes/facts.md holds ${count} facts about tide pools: how they form, how their animals cope with changing conditions, and who lives there.` } },
          ],
        };
      },
    ],
    'worker agent of task "review"': [
      toolCall('builtins_files_read', { path: 'notes/facts.md' }),
      (req) => {
        const text = lastToolResult(req);
        const facts = text.split('\n').filter((line) => line.startsWith('- ')).length;
        return { text: `The file holds ${facts} facts. Headline suggestion: "Tide pools: tough little worlds between the tides".` };
      },
    ],
  });
}
