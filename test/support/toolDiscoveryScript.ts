// The model's side of examples/tool-discovery, used to (re)record its cassette against the fake model
// server. The worker holds only search_tools and get_tool_schema at first: it searches in its own
// words, loads the schema of the best match and calls it, twice. Which tool it loads is read from the
// real search result, so a ranking change shows in the cassette diff instead of being papered over.

import type { FakeRequest } from './fakeTypes.js';
import { callAgent, lastToolResult, taskComplete, toolCall, turnScript, type TurnScript } from './turnScript.js';

/** The refund id the shop server reported earlier in the worker's conversation. */
const refundId = (req: FakeRequest): string => /refund (rf_\w+)/.exec(JSON.stringify(req.canonical.messages))?.[1] ?? 'unknown';
const firstHit = (json: string): string => (JSON.parse(json) as { results?: Array<{ name: string }> }).results?.[0]?.name ?? 'none';

export function toolDiscoveryScript(): TurnScript {
  return turnScript({
    'commander of task "make_it_right"': [
      callAgent(
        'worker',
        'Order 1042 (Ana Silva, ana@example.com) arrived broken. Refund the whole order to her, then add a note to her customer record saying the kettle arrived broken and was refunded in full. Tell me the refund id.',
      ),
      (req) => {
        const reply = JSON.parse(lastToolResult(req)) as { answer?: string };
        if (reply.answer === undefined) throw new Error(`the worker did not answer: ${lastToolResult(req)}`);
        return taskComplete(`Refunded order 1042 in full and noted it on Ana Silva's record. Worker's report: ${reply.answer}`);
      },
    ],
    'worker agent of task "make_it_right"': [
      toolCall('search_tools', { query: 'give a customer their money back for an order' }),
      (req) => toolCall('get_tool_schema', { name: firstHit(lastToolResult(req)) }),
      toolCall('mcp_shop_refund_order', { order_id: '1042', reason: 'Arrived broken' }),
      toolCall('search_tools', { query: "write a note on the customer's record" }),
      (req) => toolCall('get_tool_schema', { name: firstHit(lastToolResult(req)) }),
      (req) => toolCall('mcp_shop_add_customer_note', { email: 'ana@example.com', note: `Order 1042 arrived broken; refunded in full (${refundId(req)}).` }),
      (req) => ({ text: `Refund ${refundId(req)} issued for order 1042 and the note is on her record: ${lastToolResult(req)}` }),
    ],
  });
}
