// One streamed model request through the real @anthropic-ai/sdk, over Node's fetch (undici) and over
// the node:http transport the adapters give the SDKs (runtime/providers/httpFetch.ts), against the
// fake model server (real Anthropic wire format on 127.0.0.1). Each transport runs in its own fresh
// process; the figures are that process's CPU time (user + system): importing the SDK, the first
// request (which loads the transport), and the median per request over the rest, in rounds that
// alternate the transports so load from other processes hits both alike. A second table runs each
// adapter whole (ModelClient.complete: the request built from canonical messages, the stream folded
// back) on the node:http transport: Anthropic Messages, OpenAI Responses, Ollama (OpenAI Chat
// Completions under base_url + /v1) and Gemini (streamGenerateContent, SSE), each against the fake
// server's wire of it. Prints figures only.
//   npm run build && node bench/model-request.mjs [--requests 300] [--rounds 5]

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { startFakeModelServer } from '../dist/test/support/fakeModelServer.js';

const arg = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};
const REQUESTS = arg('requests', 300);
const ROUNDS = arg('rounds', 5);

// The client process: `node model-request.mjs --client <transport> <baseURL> <requests>`.
if (process.argv[2] === '--client') {
  const [, , , transport, baseURL, count] = process.argv;
  const cpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  if (transport.startsWith('adapter:')) {
    const t0 = cpu();
    const client = await adapterClient(transport.slice('adapter:'.length), baseURL);
    const t1 = cpu();
    const request = {
      model: 'bench-model',
      system: 'You are a helpful assistant.',
      messages: [{ role: 'user', parts: [{ type: 'text', text: 'Say hello.' }] }],
      tools: [],
      maxOutputTokens: 100,
      trace: { task: 'bench', agent: 'worker', turn: 1 },
    };
    const once = async () => {
      const response = await client.complete(request);
      if (response.message.parts.length === 0) throw new Error('empty response');
    };
    await once();
    const t2 = cpu();
    for (let i = 0; i < Number(count); i++) await once();
    const t3 = cpu();
    process.stdout.write(JSON.stringify({ importMs: t1 - t0, firstMs: t2 - t1, perRequestMs: (t3 - t2) / Number(count) }));
    process.exit(0);
  }
  const t0 = cpu();
  const { default: Anthropic } = await import('@anthropic-ai/sdk');
  const { createHttpFetch } = await import('../dist/runtime/providers/httpFetch.js');
  const t1 = cpu();
  const sdk = new Anthropic({ apiKey: 'bench-key-not-secret', baseURL, maxRetries: 0, ...(transport === 'node:http' ? { fetch: createHttpFetch() } : {}) });
  const params = { model: 'claude-haiku-4-5', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'Say hello.' }] };
  const once = async () => {
    let events = 0;
    for await (const _event of await sdk.messages.create(params)) events++;
    if (events < 3) throw new Error(`only ${events} stream events`);
  };
  await once();
  const t2 = cpu();
  for (let i = 0; i < Number(count); i++) await once();
  const t3 = cpu();
  process.stdout.write(JSON.stringify({ importMs: t1 - t0, firstMs: t2 - t1, perRequestMs: (t3 - t2) / Number(count) }));
  process.exit(0);
}

/** The adapter as the factory builds it (imported whole: its SDK loads here, not on first call). */
async function adapterClient(adapter, baseURL) {
  const options = { apiKey: 'bench-key-not-secret', baseURL };
  if (adapter === 'anthropic messages') return (await import('../dist/runtime/providers/anthropic.js')).createAnthropicClient(options);
  if (adapter === 'gemini') return (await import('../dist/runtime/providers/gemini.js')).createGeminiClient(options);
  if (adapter === 'openai responses') return (await import('../dist/runtime/providers/responses.js')).createResponsesClient(options);
  return (await import('../dist/runtime/providers/openai.js')).createOpenAIClient({ ...options, apiKey: 'ollama' });
}

const server = await startFakeModelServer({ respond: () => ({ text: 'Hello there, how can I help?', stopReason: 'end_turn' }) });
const script = fileURLToPath(import.meta.url);
const transports = ['fetch (undici)', 'node:http'];
const figures = Object.fromEntries(transports.map((t) => [t, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const transport of round % 2 ? [...transports].reverse() : transports) {
    // Not spawnSync: the fake server answers from this process's event loop.
    const { stdout } = await promisify(execFile)(process.execPath, [script, '--client', transport, server.anthropicBaseURL, String(REQUESTS)]);
    figures[transport].push(JSON.parse(stdout));
  }
}
const adapters = { 'anthropic messages': server.anthropicBaseURL, 'openai responses': server.openaiBaseURL, 'ollama (chat compl.)': server.openaiBaseURL, gemini: server.url };
const adapterFigures = Object.fromEntries(Object.keys(adapters).map((a) => [a, []]));
for (let round = 0; round < ROUNDS; round++) {
  const order = Object.keys(adapters);
  for (const adapter of round % 2 ? order.reverse() : order) {
    const { stdout } = await promisify(execFile)(process.execPath, [script, '--client', `adapter:${adapter}`, adapters[adapter], String(REQUESTS)]);
    adapterFigures[adapter].push(JSON.parse(stdout));
  }
}
await server.close();

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`one streamed Anthropic request, CPU ms of the client process, medians of ${ROUNDS} processes × ${REQUESTS} requests (node ${process.version})`);
console.log('transport'.padEnd(16), 'import SDK'.padStart(11), 'first request'.padStart(14), 'per request'.padStart(12));
for (const transport of transports) {
  const rows = figures[transport];
  const cell = (key, width) => median(rows.map((r) => r[key])).toFixed(key === 'perRequestMs' ? 2 : 0).padStart(width);
  console.log(transport.padEnd(16), cell('importMs', 11), cell('firstMs', 14), cell('perRequestMs', 12));
}
console.log('');
console.log(`one streamed request through each adapter (ModelClient.complete, node:http), CPU ms of the client process, same medians`);
console.log('adapter'.padEnd(22), 'import'.padStart(7), 'first request'.padStart(14), 'per request'.padStart(12));
for (const adapter of Object.keys(adapters)) {
  const rows = adapterFigures[adapter];
  const cell = (key, width) => median(rows.map((r) => r[key])).toFixed(key === 'perRequestMs' ? 2 : 0).padStart(width);
  console.log(adapter.padEnd(22), cell('importMs', 7), cell('firstMs', 14), cell('perRequestMs', 12));
}
