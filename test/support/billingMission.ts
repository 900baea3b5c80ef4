// A mission whose worker holds 18 tools (more than the default discovery threshold of 16): ten
// custom billing tools with realistic names, grouped by a toolset, plus builtins.files.all and
// builtins.http.all. The billing tools GET `<siteUrl>/<tool>/<id>`, so calls can really run.

import { LOCAL_HTTP } from './e2eProject.js';

export const BILLING_TOOLS = [
  ['create_invoice', 'Create a draft invoice for a customer.'],
  ['send_invoice', 'Email a finalized invoice to the customer.'],
  ['void_invoice', 'Void an open invoice so it can no longer be paid.'],
  ['refund_payment', 'Refund a captured payment, fully or partially.'],
  ['capture_payment', 'Capture a previously authorized card payment.'],
  ['list_customers', 'List customers, newest first.'],
  ['get_customer', 'Fetch one customer by id.'],
  ['update_customer', "Change a customer's email or billing address."],
  ['list_subscriptions', 'List the subscriptions of a customer.'],
  ['cancel_subscription', 'Cancel a subscription at the end of its period.'],
] as const;

/** The default task: the 18 tools, builtins.http.get always loaded. */
export const BILLING_TASK = `task "bill" {
    objective   = "Handle the billing request."
    tools       = [toolsets.billing, builtins.files.all, builtins.http.all]
    always_load = [builtins.http.get]
  }`;

/** The whole config: `modelBlock` (a `model "fake"` block), the tools, the toolset and a mission "disco" holding `task`. */
export function billingMissionHcl(modelBlock: string, model: string, siteUrl: string, task: string = BILLING_TASK): string {
  const tools = BILLING_TOOLS.map(
    ([name, description]) => `tool "${name}" {
  implements  = builtins.http.get
  description = "${description}"
  inputs = {
    id = string("The object id", true)
  }
  url = "${siteUrl}/${name}/\${inputs.id}"
}
`,
  ).join('\n');
  return `${LOCAL_HTTP}${modelBlock}
${tools}
toolset "billing" {
  description = "Invoices, payments, customers and subscriptions"
  tools       = [${BILLING_TOOLS.map(([n]) => `tools.${n}`).join(', ')}]
}

mission "disco" {
  commander { model = ${model} }
  ${task}
}
`;
}
