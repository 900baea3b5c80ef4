// A small online shop's back office as an MCP server over stdio: 24 tools over orders, products,
// customers, returns, discounts and sales figures, on a fixed in-memory data set (nothing leaves the
// process, nothing depends on the clock). examples/tool-discovery/mission.hcl starts it with
// `node shop-server.mjs`; try it alone with the MCP inspector or `squadron tools`.

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const customers = new Map([
  ['ana@example.com', { name: 'Ana Silva', card: '4242', notes: ['Prefers e-mail over phone.'], blocked: false }],
  ['li@example.com', { name: 'Li Wei', card: '1881', notes: [], blocked: false }],
  ['sam@example.com', { name: 'Sam Okafor', card: '5100', notes: [], blocked: false }],
]);
const products = new Map([
  ['KET-01', { name: 'Ceramic pour-over kettle', category: 'brewing', price: 89, stock: 14 }],
  ['GRD-02', { name: 'Burr coffee grinder', category: 'brewing', price: 129, stock: 6 }],
  ['MUG-03', { name: 'Stoneware mug, set of 4', category: 'tableware', price: 36, stock: 40 }],
  ['FIL-04', { name: 'Paper filters, 100', category: 'supplies', price: 7, stock: 210 }],
]);
const orders = new Map([
  ['1041', { email: 'li@example.com', lines: [['GRD-02', 1]], status: 'shipped', placed: '2026-11-20', address: '8 Harbour Rd, Leith', tracking: 'TRK-77120' }],
  ['1042', { email: 'ana@example.com', lines: [['KET-01', 1]], status: 'delivered', placed: '2026-11-18', address: '21 Rua Augusta, Lisbon', tracking: 'TRK-77098' }],
  ['1043', { email: 'sam@example.com', lines: [['MUG-03', 2], ['FIL-04', 3]], status: 'paid', placed: '2026-11-26', address: '3 Allen Ave, Ikeja', tracking: null }],
  ['1044', { email: 'ana@example.com', lines: [['FIL-04', 2]], status: 'delivered', placed: '2026-11-02', address: '21 Rua Augusta, Lisbon', tracking: 'TRK-76510' }],
]);
const returns = new Map([['R-301', { order: '1041', reason: 'Grinder too loud', status: 'requested' }]]);
const discounts = new Map([['WELCOME10', { percentOff: 10, expiresOn: '2026-12-31', active: true }]]);
const refunds = [];
const giftCards = [];

const text = (value) => ({ content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value, null, 2) }] });
const failure = (message) => ({ content: [{ type: 'text', text: message }], isError: true });
const money = (n) => `$${n.toFixed(2)}`;
const orderTotal = (order) => order.lines.reduce((sum, [sku, qty]) => sum + (products.get(sku)?.price ?? 0) * qty, 0);
const orderView = (id, order) => ({ order_id: id, ...order, total: money(orderTotal(order)) });
const inRange = (date, from, to) => (!from || date >= from) && (!to || date <= to);
const dateRange = { from: z.string().describe('First day, YYYY-MM-DD').optional(), to: z.string().describe('Last day, YYYY-MM-DD').optional() };
const orderId = z.string().describe('Order number, e.g. "1042"');

const server = new McpServer({ name: 'shop', version: '1.0.0' });
const tool = (name, description, inputSchema, handler, readOnly = false) =>
  server.registerTool(name, { description, inputSchema, annotations: { readOnlyHint: readOnly } }, handler);

// ---------------------------------------------------------------- orders
tool('list_orders', 'List orders, newest first, optionally filtered by status or customer e-mail.', {
  status: z.enum(['paid', 'shipped', 'delivered', 'cancelled', 'refunded']).optional(),
  customer_email: z.string().optional(),
}, async ({ status, customer_email }) =>
  text([...orders].filter(([, o]) => (!status || o.status === status) && (!customer_email || o.email === customer_email)).reverse().map(([id, o]) => orderView(id, o))), true);

tool('get_order', 'Get one order with its lines, total, status, shipping address and tracking number.', { order_id: orderId }, async ({ order_id }) => {
  const order = orders.get(order_id);
  return order ? text(orderView(order_id, order)) : failure(`No order ${order_id}.`);
}, true);

tool('refund_order', "Refund an order's payment to the customer's card, in full or in part. Marks a full refund as refunded.", {
  order_id: orderId,
  amount: z.number().positive().describe('Amount to refund; omit for the full order total').optional(),
  reason: z.string().describe('Why the money is returned, kept with the refund'),
}, async ({ order_id, amount, reason }) => {
  const order = orders.get(order_id);
  if (!order) return failure(`No order ${order_id}.`);
  if (order.status === 'refunded') return failure(`Order ${order_id} is already refunded.`);
  const total = orderTotal(order);
  const value = amount ?? total;
  if (value > total) return failure(`Cannot refund ${money(value)}: order ${order_id} totals ${money(total)}.`);
  const id = `rf_${order_id}_${refunds.length + 1}`;
  refunds.push({ id, order_id, value, reason });
  if (value === total) order.status = 'refunded';
  const card = customers.get(order.email)?.card ?? '????';
  return text(`Refunded ${money(value)} to the card ending ${card} for order ${order_id} (refund ${id}). Reason: ${reason}`);
});

tool('cancel_order', 'Cancel an order that has not shipped yet; its payment is voided.', { order_id: orderId, reason: z.string() }, async ({ order_id }) => {
  const order = orders.get(order_id);
  if (!order) return failure(`No order ${order_id}.`);
  if (order.status !== 'paid') return failure(`Order ${order_id} is ${order.status}; only paid, unshipped orders can be cancelled.`);
  order.status = 'cancelled';
  return text(`Order ${order_id} cancelled.`);
});

tool('update_shipping_address', 'Change the delivery address of an order that has not shipped yet.', { order_id: orderId, address: z.string() }, async ({ order_id, address }) => {
  const order = orders.get(order_id);
  if (!order) return failure(`No order ${order_id}.`);
  if (order.status !== 'paid') return failure(`Order ${order_id} has already shipped.`);
  order.address = address;
  return text(`Order ${order_id} will ship to ${address}.`);
});

tool('resend_order_confirmation', 'Send the order confirmation e-mail to the customer again.', { order_id: orderId }, async ({ order_id }) => {
  const order = orders.get(order_id);
  return order ? text(`Confirmation for order ${order_id} re-sent to ${order.email}.`) : failure(`No order ${order_id}.`);
});

tool('track_shipment', "Show where an order's parcel is: carrier tracking number and last scan.", { order_id: orderId }, async ({ order_id }) => {
  const order = orders.get(order_id);
  if (!order) return failure(`No order ${order_id}.`);
  if (!order.tracking) return text(`Order ${order_id} has not shipped yet.`);
  return text({ order_id, tracking: order.tracking, last_scan: order.status === 'delivered' ? 'Delivered' : 'In transit' });
}, true);

// ---------------------------------------------------------------- products and stock
tool('list_products', 'List catalogue products with price and stock, optionally by category or a word in the name.', {
  query: z.string().optional(),
  category: z.enum(['brewing', 'tableware', 'supplies']).optional(),
}, async ({ query, category }) =>
  text([...products].filter(([, p]) => (!category || p.category === category) && (!query || p.name.toLowerCase().includes(query.toLowerCase()))).map(([sku, p]) => ({ sku, ...p }))), true);

tool('get_product', 'Get one product by SKU: name, category, price and units in stock.', { sku: z.string() }, async ({ sku }) => {
  const product = products.get(sku);
  return product ? text({ sku, ...product }) : failure(`No product ${sku}.`);
}, true);

tool('update_stock', 'Set the number of units in stock for a product (after a delivery or a count).', { sku: z.string(), quantity: z.number().int().min(0) }, async ({ sku, quantity }) => {
  const product = products.get(sku);
  if (!product) return failure(`No product ${sku}.`);
  product.stock = quantity;
  return text(`${sku} now has ${quantity} in stock.`);
});

tool('set_price', "Change a product's selling price.", { sku: z.string(), price: z.number().positive() }, async ({ sku, price }) => {
  const product = products.get(sku);
  if (!product) return failure(`No product ${sku}.`);
  product.price = price;
  return text(`${sku} now sells at ${money(price)}.`);
});

// ---------------------------------------------------------------- discounts and gift cards
tool('create_discount_code', 'Create a percentage discount code customers can enter at checkout.', {
  code: z.string(),
  percent_off: z.number().min(1).max(90),
  expires_on: z.string().describe('YYYY-MM-DD'),
}, async ({ code, percent_off, expires_on }) => {
  if (discounts.has(code)) return failure(`Code ${code} already exists.`);
  discounts.set(code, { percentOff: percent_off, expiresOn: expires_on, active: true });
  return text(`Code ${code}: ${percent_off}% off until ${expires_on}.`);
});

tool('disable_discount_code', 'Turn off a discount code so it no longer applies at checkout.', { code: z.string() }, async ({ code }) => {
  const discount = discounts.get(code);
  if (!discount) return failure(`No code ${code}.`);
  discount.active = false;
  return text(`Code ${code} disabled.`);
});

tool('create_gift_card', 'Issue a gift card of a given value and e-mail it to someone.', { email: z.string(), amount: z.number().positive() }, async ({ email, amount }) => {
  const id = `GC-${900 + giftCards.length + 1}`;
  giftCards.push({ id, email, amount });
  return text(`Gift card ${id} worth ${money(amount)} sent to ${email}.`);
});

// ---------------------------------------------------------------- customers
tool('list_customers', 'Find customers whose name or e-mail contains the given text.', { query: z.string() }, async ({ query }) =>
  text([...customers].filter(([email, c]) => `${email} ${c.name}`.toLowerCase().includes(query.toLowerCase())).map(([email, c]) => ({ email, name: c.name }))), true);

tool('get_customer', "Get a customer's profile: name, saved card, notes and order numbers.", { email: z.string() }, async ({ email }) => {
  const customer = customers.get(email);
  if (!customer) return failure(`No customer ${email}.`);
  return text({ email, ...customer, orders: [...orders].filter(([, o]) => o.email === email).map(([id]) => id) });
}, true);

tool('add_customer_note', "Add an internal note to a customer's profile, visible to the support team.", { email: z.string(), note: z.string() }, async ({ email, note }) => {
  const customer = customers.get(email);
  if (!customer) return failure(`No customer ${email}.`);
  customer.notes.push(note);
  return text(`Note added to ${customer.name} (${email}); the profile now has ${customer.notes.length} notes.`);
});

tool('block_customer', 'Stop a customer from placing new orders, e.g. after repeated fraud.', { email: z.string(), reason: z.string() }, async ({ email }) => {
  const customer = customers.get(email);
  if (!customer) return failure(`No customer ${email}.`);
  customer.blocked = true;
  return text(`${email} can no longer place orders.`);
});

// ---------------------------------------------------------------- returns
tool('list_returns', 'List return requests, optionally by status.', { status: z.enum(['requested', 'approved', 'rejected']).optional() }, async ({ status }) =>
  text([...returns].filter(([, r]) => !status || r.status === status).map(([id, r]) => ({ return_id: id, ...r }))), true);

tool('approve_return', 'Accept a return request and e-mail the customer a prepaid return label.', { return_id: z.string() }, async ({ return_id }) => {
  const request = returns.get(return_id);
  if (!request) return failure(`No return ${return_id}.`);
  request.status = 'approved';
  return text(`Return ${return_id} approved; label sent.`);
});

tool('reject_return', 'Decline a return request, with the reason sent to the customer.', { return_id: z.string(), reason: z.string() }, async ({ return_id }) => {
  const request = returns.get(return_id);
  if (!request) return failure(`No return ${return_id}.`);
  request.status = 'rejected';
  return text(`Return ${return_id} rejected.`);
});

// ---------------------------------------------------------------- figures
tool('sales_summary', 'Revenue, order count and average order value over a date range.', dateRange, async ({ from, to }) => {
  const picked = [...orders.values()].filter((o) => inRange(o.placed, from, to) && o.status !== 'cancelled');
  const revenue = picked.reduce((sum, o) => sum + orderTotal(o), 0) - refunds.reduce((sum, r) => sum + r.value, 0);
  return text({ orders: picked.length, revenue: money(revenue), average_order: money(picked.length ? revenue / picked.length : 0) });
}, true);

tool('top_products', 'Best-selling products by units sold over a date range.', dateRange, async ({ from, to }) => {
  const units = new Map();
  for (const o of orders.values()) if (inRange(o.placed, from, to)) for (const [sku, qty] of o.lines) units.set(sku, (units.get(sku) ?? 0) + qty);
  return text([...units].sort((a, b) => b[1] - a[1]).map(([sku, sold]) => ({ sku, name: products.get(sku)?.name, sold })));
}, true);

tool('export_orders_csv', 'Export the orders of a date range as CSV text (for accounting).', dateRange, async ({ from, to }) => {
  const rows = [...orders].filter(([, o]) => inRange(o.placed, from, to)).map(([id, o]) => `${id},${o.placed},${o.email},${o.status},${orderTotal(o).toFixed(2)}`);
  return text(['order_id,placed,email,status,total', ...rows].join('\n'));
}, true);

await server.connect(new StdioServerTransport());
