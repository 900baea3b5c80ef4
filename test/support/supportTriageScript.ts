// The model's side of examples/support-triage, used to (re)record its cassette.jsonl against the fake
// model server: the triage commander classifies the default ticket (a question) and routes it to
// answer_question; that task's worker drafts the answer; the reply task (started by send_to) turns it
// into the message to the customer.

import { callAgent, lastToolResult, turnScript, type TurnScript } from './turnScript.js';

const ANSWER = 'Open Billing > Invoices, pick the year in the filter and choose "Download all": you get one ZIP file with every invoice of that year.';

export function supportTriageScript(): TurnScript {
  return turnScript({
    'commander of task "triage"': [
      {
        toolCalls: [
          { name: 'submit_output', input: { output: { category: 'question', summary: 'The customer asks how to download a whole year of invoices at once.' } } },
          { name: 'task_complete', input: { summary: 'A question: how to download all of last year\'s invoices in one go.', route: 'answer_question' } },
        ],
      },
    ],
    'commander of task "answer_question"': [
      callAgent('worker', 'A customer asks how to download all of last year\'s invoices at once (they only find them one by one). Draft a short, friendly answer: Billing > Invoices has a year filter and a "Download all" button that gives one ZIP file.'),
      (req) => {
        const reply = JSON.parse(lastToolResult(req)) as { answer: string };
        return { toolCalls: [{ name: 'task_complete', input: { summary: `Drafted answer: ${reply.answer}` } }] };
      },
    ],
    'worker agent of task "answer_question"': [{ text: ANSWER }],
    'commander of task "reply"': [
      {
        toolCalls: [
          { name: 'submit_output', input: { output: { reply: `Thanks for asking! ${ANSWER} Let us know if anything is missing.` } } },
          { name: 'task_complete', input: { summary: 'Wrote the reply: Billing > Invoices, filter by year, "Download all" gives one ZIP file.' } },
        ],
      },
    ],
  });
}
