// The tools of Squadron's test MCP servers (stdio and Streamable HTTP share them). Plain JavaScript
// on the SDK's server side, so a compiled CLI can spawn `node test/support/mcpStdioServer.mjs`.
// Each tool exercises one behaviour of the client: text, images, structured content, embedded
// resources, error results, visible side effects, slowness and crashes.

import { appendFileSync } from 'node:fs';

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CreateMessageResultSchema, ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

/** A 1×1 transparent PNG. */
export const TEST_PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

/**
 * @param {{ name?: string, appendFile?: string, extraTools?: string[], asking?: boolean, sampling?: boolean, listChanging?: boolean, tracing?: boolean, onCrash: () => void }} options
 * @returns {McpServer}
 */
export function createTestMcpServer(options) {
  const server = new McpServer({ name: options.name ?? 'squadron-test', version: '1.0.0' });

  server.registerTool(
    'echo',
    { description: 'Echo the given text back.', inputSchema: { text: z.string() }, annotations: { readOnlyHint: true } },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );

  const add = server.registerTool(
    'add',
    { description: 'Add two numbers.', inputSchema: { a: z.number(), b: z.number() }, annotations: { idempotentHint: true } },
    async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }),
  );

  server.registerTool('image', { description: 'Return a tiny PNG image.' }, async () => ({
    content: [
      { type: 'text', text: 'here is the image' },
      { type: 'image', data: TEST_PNG_BASE64, mimeType: 'image/png' },
    ],
  }));

  server.registerTool(
    'weather',
    {
      description: 'Structured weather for a city (structuredContent only, no text).',
      inputSchema: { city: z.string() },
      outputSchema: { city: z.string(), celsius: z.number(), conditions: z.array(z.string()) },
    },
    async ({ city }) => ({ content: [], structuredContent: { city, celsius: 21.5, conditions: ['sunny', 'dry'] } }),
  );

  server.registerTool(
    'weather_with_text',
    {
      description: 'Structured weather with its own text rendering.',
      inputSchema: { city: z.string() },
      outputSchema: { city: z.string(), celsius: z.number() },
    },
    async ({ city }) => ({ content: [{ type: 'text', text: `${city}: 21.5 °C` }], structuredContent: { city, celsius: 21.5 } }),
  );

  server.registerTool('resources', { description: 'Return embedded resources and a resource link.' }, async () => ({
    content: [
      { type: 'resource', resource: { uri: 'file:///notes.txt', mimeType: 'text/plain', text: 'the notes' } },
      { type: 'resource', resource: { uri: 'file:///data.bin', mimeType: 'application/octet-stream', blob: 'AAECAw==' } },
      { type: 'resource_link', uri: 'file:///big.csv', name: 'big.csv', mimeType: 'text/csv', description: 'a large table' },
    ],
  }));

  server.registerTool(
    'fail',
    { description: 'Always report an error result.', inputSchema: { message: z.string().optional() } },
    async ({ message }) => ({ content: [{ type: 'text', text: message ?? 'it failed on purpose' }], isError: true }),
  );

  server.registerTool(
    'append_line',
    { description: 'Append a line to the file named by MCP_TEST_APPEND_FILE.', inputSchema: { line: z.string() } },
    async ({ line }) => {
      const file = options.appendFile ?? process.env.MCP_TEST_APPEND_FILE;
      if (!file) return { content: [{ type: 'text', text: 'MCP_TEST_APPEND_FILE is not set' }], isError: true };
      appendFileSync(file, `${line}\n`);
      return { content: [{ type: 'text', text: `appended to ${file}` }] };
    },
  );

  server.registerTool('pid', { description: 'Return the server process id.', annotations: { readOnlyHint: true } }, async () => ({
    content: [{ type: 'text', text: String(process.pid) }],
  }));

  server.registerTool(
    'slow',
    { description: 'Wait the given milliseconds, then answer.', inputSchema: { ms: z.number().int().min(0) } },
    async ({ ms }) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      return { content: [{ type: 'text', text: `waited ${ms} ms` }] };
    },
  );

  server.registerTool('crash', { description: 'Simulate a crash of the server (never answers).' }, async () => {
    options.onCrash();
    return new Promise(() => {});
  });

  // Tools named by the test (e.g. to make two servers' tools collide on the model API), echoing their input.
  for (const name of options.extraTools ?? []) {
    server.registerTool(name, { description: `Test tool ${name}: echoes its text.`, inputSchema: { text: z.string() } }, async ({ text }) => ({
      content: [{ type: 'text', text: `${name}: ${text}` }],
    }));
  }

  // A tool that answers the `_meta` of its request (the trace context a traced client propagates).
  if (options.tracing) {
    server.registerTool('meta', { description: 'Return the _meta of this call request.' }, async (extra) => ({
      content: [{ type: 'text', text: JSON.stringify(extra._meta ?? {}) }],
    }));
  }

  // A server that asks the operator a question (elicitation) whether or not the client said it can answer.
  if (options.asking) {
    server.registerTool('ask', { description: 'Ask the operator which city to use.' }, async (extra) => {
      try {
        const params = { message: 'Which city?', requestedSchema: { type: 'object', properties: { city: { type: 'string' } } } };
        const answer = await server.server.request({ method: 'elicitation/create', params }, ElicitResultSchema, { relatedRequestId: extra.requestId });
        return { content: [{ type: 'text', text: `the operator said ${JSON.stringify(answer)}` }] };
      } catch (err) {
        return { content: [{ type: 'text', text: `could not ask: ${err instanceof Error ? err.message : String(err)}` }], isError: true };
      }
    });
  }

  // A server whose tools change while it runs: `grow` adds `grown` and removes `add`, and the SDK
  // announces each change with notifications/tools/list_changed (before the call's result). It also
  // adds the prompt `farewell` beside `greeting` (notifications/prompts/list_changed).
  if (options.listChanging) {
    const promptText = (text) => async () => ({ messages: [{ role: 'user', content: { type: 'text', text } }] });
    server.registerPrompt('greeting', { description: 'Say hello.' }, promptText('Say hello.'));
    server.registerTool('grow', { description: 'Add the tool grown and remove add.' }, async () => {
      add.remove();
      server.registerTool('grown', { description: 'A tool that appeared mid-run.', inputSchema: { text: z.string() } }, async ({ text }) => ({
        content: [{ type: 'text', text: `grown: ${text}` }],
      }));
      server.registerPrompt('farewell', { description: 'Say goodbye.' }, promptText('Say goodbye.'));
      return { content: [{ type: 'text', text: 'grew' }] };
    });
  }

  // A server that asks the client for a model completion (sampling) whether or not the client declared it can.
  if (options.sampling) {
    server.registerTool('summarize', { description: 'Ask the client\'s model for a summary.', inputSchema: { text: z.string() } }, async ({ text }, extra) => {
      try {
        const params = { messages: [{ role: 'user', content: { type: 'text', text: `Summarize: ${text}` } }], systemPrompt: 'You summarize for the test server.', maxTokens: 50 };
        const answer = await server.server.request({ method: 'sampling/createMessage', params }, CreateMessageResultSchema, { relatedRequestId: extra.requestId });
        return { content: [{ type: 'text', text: `the model said ${JSON.stringify(answer.content)}` }] };
      } catch (err) {
        return { content: [{ type: 'text', text: `could not sample: ${err instanceof Error ? err.message : String(err)}` }], isError: true };
      }
    });
  }

  return server;
}
