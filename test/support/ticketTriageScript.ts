// The model's side of examples/ticket-triage, used to (re)record its cassette.jsonl against the fake
// model server: each item's commander submits the ticket's priority and team; the report's commander
// asks query_task_output for counts per priority and team and for the high-priority tickets.

import type { FakeReply, FakeRequest } from './fakeTypes.js';
import { firstUserMessage, lastToolResult, turnScript, type TurnScript } from './turnScript.js';

/** The triage the recorded model gives each ticket, by subject. */
export const TICKET_TRIAGE: Readonly<Record<string, { priority: string; team: string }>> = {
  "Checkout page down for all EU customers": { priority: "high", team: "billing" },
  "How do I change my invoice address?": { priority: "low", team: "billing" },
  "Password reset email never arrives": { priority: "normal", team: "accounts" },
  "API returns 500 on every order since 09:00": { priority: "high", team: "platform" },
  "Feature request: dark mode": { priority: "low", team: "product" },
  "Charged twice for the same subscription": { priority: "high", team: "billing" },
  "Cannot invite a teammate to my workspace": { priority: "normal", team: "accounts" },
  "Export to CSV cuts off after 1,000 rows": { priority: "normal", team: "product" },
  "Login page down on mobile": { priority: "high", team: "accounts" },
  "Typo on the pricing page": { priority: "low", team: "product" },
  "Webhook deliveries delayed by an hour": { priority: "normal", team: "platform" },
  "Refund not received after two weeks": { priority: "normal", team: "billing" },
  "2FA codes rejected for all users in one org": { priority: "high", team: "accounts" },
  "Dashboard charts load slowly": { priority: "normal", team: "platform" },
  "Please add an Italian translation": { priority: "low", team: "product" },
  "VAT missing on my invoice": { priority: "normal", team: "billing" },
  "Data export job stuck at 99%": { priority: "normal", team: "platform" },
  "Account locked after too many attempts": { priority: "normal", team: "accounts" },
  "Status page says all good but search is down": { priority: "high", team: "platform" },
  "Question about the annual plan discount": { priority: "low", team: "billing" },
  "SSO login loops back to the start page": { priority: "high", team: "accounts" },
  "Suggestion: keyboard shortcuts": { priority: "low", team: "product" },
};

function triage(request: FakeRequest): FakeReply {
  const subject = /"(.*)"/.exec(firstUserMessage(request))?.[1] ?? '';
  const found = TICKET_TRIAGE[subject] ?? { priority: 'normal', team: 'product' };
  return {
    toolCalls: [
      { name: 'submit_output', input: { output: found } },
      { name: 'task_complete', input: { summary: `Ticket "${subject}": ${found.priority} priority, owned by ${found.team}.` } },
    ],
  };
}

export function ticketTriageScript(): TurnScript {
  return turnScript({
    'commander of task "triage[': [triage],
    'commander of task "report"': [
      { toolCalls: [{ name: 'query_task_output', input: { task: 'triage', group_by: 'priority' } }] },
      { toolCalls: [{ name: 'query_task_output', input: { task: 'triage', group_by: 'team' } }] },
      { toolCalls: [{ name: 'query_task_output', input: { task: 'triage', where: [{ field: 'priority', value: 'high' }], fields: ['team'], limit: 50 } }] },
      (req) => {
        const byPriority = JSON.parse(lastToolResultOf(req, 3)) as { counts: Record<string, number> };
        const byTeam = JSON.parse(lastToolResultOf(req, 2)) as { counts: Record<string, number> };
        const high = JSON.parse(lastToolResult(req)) as { items: { index: number; output: { team: string } }[] };
        const busiest = Object.keys(byTeam.counts)[0] ?? 'none';
        const list = high.items.map((i) => `item ${i.index} (${i.output.team})`).join(', ');
        return {
          toolCalls: [
            { name: 'submit_output', input: { output: { high_priority: byPriority.counts['high'] ?? 0, busiest_team: busiest } } },
            { name: 'task_complete', input: { summary: `${byPriority.counts['high'] ?? 0} tickets are high priority: ${list}. The busiest team is ${busiest} (${byTeam.counts[busiest]} tickets).` } },
          ],
        };
      },
    ],
  });
}

/** Text of the n-th newest tool result in the request (1 = the newest). */
function lastToolResultOf(request: FakeRequest, n: number): string {
  const texts: string[] = [];
  for (const message of request.canonical.messages) {
    for (const part of message.parts) if (part.type === 'tool_result') texts.push(part.content.map((c) => (c.type === 'text' ? c.text : '')).join(''));
  }
  return texts[texts.length - n] ?? '';
}
