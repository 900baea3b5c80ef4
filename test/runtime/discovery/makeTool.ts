// Builds ToolSpecs for discovery tests: only the fields the index reads matter; execute is inert.

import type { ToolSpec } from '../../../runtime/tools/types.js';
import { apiNameOf, textResult } from '../../../runtime/tools/types.js';

export interface ToolSketch {
  ref: string;
  description: string;
  group?: string;
  params?: Record<string, string>;
}

export function makeTool(sketch: ToolSketch): ToolSpec {
  const properties: Record<string, unknown> = {};
  for (const [name, description] of Object.entries(sketch.params ?? {})) properties[name] = { type: 'string', description };
  const dotted = sketch.ref.split('.');
  return {
    ref: sketch.ref,
    apiName: apiNameOf(sketch.ref),
    description: sketch.description,
    inputSchema: { type: 'object', properties, additionalProperties: false },
    group: sketch.group ?? dotted.slice(0, -1).join('.'),
    source: sketch.ref.startsWith('mcp.') ? 'mcp' : 'custom',
    idempotent: true,
    execute: async () => textResult('ok'),
  };
}

export function makeTools(sketches: ToolSketch[]): ToolSpec[] {
  return sketches.map(makeTool);
}

/** A small agency catalog in three groups, enough for ranking and paging tests. */
export function sampleCatalog(): ToolSpec[] {
  return makeTools([
    { ref: 'tools.crm_create_contact', group: 'crm', description: 'Create a contact (a person) in the CRM.', params: { email: 'Primary email address.' } },
    { ref: 'tools.crm_delete_contact', group: 'crm', description: 'Permanently delete a contact and its timeline.', params: { contact_id: 'Contact ID.' } },
    { ref: 'tools.crm_search_contacts', group: 'crm', description: 'Search contacts by name, email or company.', params: { query: 'Free text.' } },
    { ref: 'tools.billing_create_invoice', group: 'billing', description: 'Create a draft invoice for a client with line items.', params: { client_id: 'Client ID.' } },
    { ref: 'tools.billing_void_invoice', group: 'billing', description: 'Void an open invoice so it can no longer be paid.', params: { invoice_id: 'Invoice ID.' } },
    { ref: 'tools.billing_issue_refund', group: 'billing', description: 'Refund all or part of a payment.', params: { payment_id: 'Payment ID.' } },
    { ref: 'mcp.github.create_issue', description: 'Create a new issue in a GitHub repository.', params: { title: 'Issue title.' } },
    { ref: 'mcp.github.list_pull_requests', description: 'List and filter repository pull requests.', params: { state: 'open, closed or all.' } },
    { ref: 'mcp.github.merge_pull_request', description: 'Merge a pull request.', params: { merge_method: 'merge, squash or rebase.' } },
  ]);
}
