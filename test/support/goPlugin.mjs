#!/usr/bin/env node
// A Squadron plugin written without Go: it speaks HashiCorp go-plugin's protocol as the SDK's
// plugin.Serve does (refuses to run without the magic cookie, prints the handshake line
// `1|1|unix|<socket>|grpc`, then serves plugin.ToolPlugin over gRPC on that socket). Tools:
//   shout { text }   → the text in capitals, with the `suffix` setting appended when configured
//   settings {}      → the settings it was configured with, as JSON
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';

if (process.env.SQUAD_PLUGIN !== 'squadron-tool-plugin-v1') {
  process.stderr.write('This binary is a plugin. These are not meant to be executed directly.\n');
  process.exit(1);
}
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const definition = protoLoader.loadSync(join(root, 'vendor', 'squadron-sdk', 'plugin.proto'), { keepCase: true, defaults: true });
const pkg = grpc.loadPackageDefinition(definition);
let settings = {};
const tools = [
  { name: 'shout', description: 'Returns the text in capital letters.', schema_json: JSON.stringify({ type: 'object', properties: { text: { type: 'string', description: 'what to shout' } }, required: ['text'] }), output_schema_json: '' },
  { name: 'settings', description: 'Returns the settings the plugin was configured with.', schema_json: JSON.stringify({ type: 'object', properties: {} }), output_schema_json: '' },
];
const server = new grpc.Server();
server.addService(pkg.plugin.ToolPlugin.service, {
  Configure(call, cb) {
    settings = { ...call.request.settings };
    cb(null, { success: true, error: '' });
  },
  ListTools(_call, cb) {
    cb(null, { tools });
  },
  GetToolInfo(call, cb) {
    const tool = tools.find((t) => t.name === call.request.tool_name);
    if (!tool) return cb({ code: grpc.status.NOT_FOUND, details: `tool not found: ${call.request.tool_name}` });
    cb(null, { tool });
  },
  Call(call, cb) {
    const { tool_name: name, payload } = call.request;
    const input = JSON.parse(payload || '{}');
    if (name === 'shout') return cb(null, { result: `${String(input.text).toUpperCase()}${settings.suffix ?? ''}` });
    if (name === 'settings') return cb(null, { result: JSON.stringify(settings) });
    cb({ code: grpc.status.NOT_FOUND, details: `tool not found: ${name}` });
  },
});
const dir = mkdtempSync(join(tmpdir(), 'plugin'));
const socket = join(dir, 'plugin.sock');
server.bindAsync(`unix://${socket}`, grpc.ServerCredentials.createInsecure(), (err) => {
  if (err) {
    process.stderr.write(`bind failed: ${err.message}\n`);
    process.exit(1);
  }
  process.stdout.write(`1|1|unix|${socket}|grpc\n`);
});
const stop = () => {
  server.forceShutdown();
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
