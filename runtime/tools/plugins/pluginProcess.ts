// Starts a Go Squadron plugin the way HashiCorp's go-plugin client does: the program is run with the
// magic cookie in its environment, prints one handshake line on stdout
// (`CORE-PROTOCOL-VERSION|APP-PROTOCOL-VERSION|NETWORK-TYPE|NETWORK-ADDR|PROTOCOL`), and from then on
// serves the SDK's `plugin.ToolPlugin` gRPC service (vendor/squadron-sdk/plugin.proto) at that address.

import { spawn, type ChildProcess } from 'node:child_process';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { z } from 'zod';
import { assetPath } from '../../../core/assets.js';

/** The SDK's go-plugin settings (squadron-sdk interface.go `Handshake`). */
export const PLUGIN_HANDSHAKE = { cookieKey: 'SQUAD_PLUGIN', cookieValue: 'squadron-tool-plugin-v1', appVersion: 1, coreVersion: 1 } as const;

export interface PluginCommand {
  command: string;
  args: string[];
  cwd: string;
}

export interface PluginToolInfo {
  name: string;
  description: string;
  /** The tool's input JSON schema (the plugin's `schema_json`), `{type: object}` when it gives none. */
  inputSchema: Record<string, unknown>;
}

export interface RunningPlugin {
  listTools(): Promise<PluginToolInfo[]>;
  configure(settings: Readonly<Record<string, string>>): Promise<void>;
  call(tool: string, payload: string, signal?: AbortSignal): Promise<string>;
  close(): void;
}

const ToolInfoWire = z.object({ name: z.string(), description: z.string().optional(), schema_json: z.string().optional() });
const ListToolsWire = z.object({ tools: z.array(ToolInfoWire).optional() });
const ConfigureWire = z.object({ success: z.boolean().optional(), error: z.string().optional() });
const CallWire = z.object({ result: z.string().optional() });

type Unary = (req: object, meta: grpc.Metadata, opts: grpc.CallOptions, cb: (err: grpc.ServiceError | null, res: unknown) => void) => grpc.ClientUnaryCall;
type ToolPluginClient = grpc.Client & Record<'Configure' | 'Call' | 'ListTools', Unary>;

let serviceCtor: grpc.ServiceClientConstructor | undefined;
function toolPluginService(): grpc.ServiceClientConstructor {
  if (serviceCtor) return serviceCtor;
  const definition = protoLoader.loadSync(assetPath('vendor', 'squadron-sdk', 'plugin.proto'), { keepCase: true, longs: String, defaults: true });
  const pkg = grpc.loadPackageDefinition(definition) as unknown as { plugin: { ToolPlugin: grpc.ServiceClientConstructor } };
  serviceCtor = pkg.plugin.ToolPlugin;
  return serviceCtor;
}

/** Parses a go-plugin handshake line into the gRPC target, or says what is wrong with it. */
export function parseHandshake(line: string): { target: string } | { error: string } {
  const parts = line.trim().split('|');
  if (parts.length < 4) return { error: `its first line is not a go-plugin handshake: ${JSON.stringify(line.slice(0, 200))}` };
  const [core, app, network, address, protocol = 'netrpc'] = parts as [string, string, string, string, string?];
  if (Number(core) !== PLUGIN_HANDSHAKE.coreVersion) return { error: `it speaks go-plugin core protocol ${core}, expected ${PLUGIN_HANDSHAKE.coreVersion}` };
  if (Number(app) !== PLUGIN_HANDSHAKE.appVersion) return { error: `it speaks plugin protocol version ${app}, expected ${PLUGIN_HANDSHAKE.appVersion}` };
  if (protocol !== 'grpc') return { error: `it serves the "${protocol}" protocol; only grpc plugins are supported` };
  if (network === 'unix') return { target: `unix://${address}` };
  if (network === 'tcp') return { target: address };
  return { error: `it listens on an unknown network type "${network}"` };
}

/** Starts the plugin and connects to it; rejects with a sentence saying why it could not start. */
export async function startPlugin(cmd: PluginCommand, opts: { timeoutMs?: number } = {}): Promise<RunningPlugin> {
  const child = spawn(cmd.command, cmd.args, {
    cwd: cmd.cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      [PLUGIN_HANDSHAKE.cookieKey]: PLUGIN_HANDSHAKE.cookieValue,
      PLUGIN_PROTOCOL_VERSIONS: String(PLUGIN_HANDSHAKE.appVersion),
      PLUGIN_MIN_PORT: '10000',
      PLUGIN_MAX_PORT: '25000',
    },
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-2000);
  });
  const target = await readHandshake(child, opts.timeoutMs ?? 30_000, () => stderr);
  const Client = toolPluginService();
  const client = new Client(target, grpc.credentials.createInsecure()) as unknown as ToolPluginClient;
  const unary = (method: 'Configure' | 'Call' | 'ListTools', req: object, signal?: AbortSignal): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const call = client[method](req, new grpc.Metadata(), {}, (err, res) => (err ? reject(new Error(err.details || err.message)) : resolve(res)));
      signal?.addEventListener('abort', () => call.cancel(), { once: true });
    });
  return {
    async listTools() {
      const res = ListToolsWire.parse(await unary('ListTools', {}));
      return (res.tools ?? []).map((t) => ({ name: t.name, description: t.description ?? '', inputSchema: schemaOf(t.schema_json) }));
    },
    async configure(settings) {
      const res = ConfigureWire.parse(await unary('Configure', { settings }));
      if (res.error) throw new Error(res.error);
    },
    async call(tool, payload, signal) {
      return CallWire.parse(await unary('Call', { tool_name: tool, payload }, signal)).result ?? '';
    },
    close() {
      client.close();
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    },
  };
}

function schemaOf(json: string | undefined): Record<string, unknown> {
  if (!json) return { type: 'object', properties: {} };
  try {
    const parsed: unknown = JSON.parse(json);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // fall through: a schema that is not JSON is treated as none
  }
  return { type: 'object', properties: {} };
}

function readHandshake(child: ChildProcess, timeoutMs: number, stderr: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    const tail = (): string => (stderr().trim() ? `; its stderr: ${stderr().trim().split('\n').slice(-3).join(' | ')}` : '');
    const fail = (why: string): void => {
      cleanup();
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      reject(new Error(why));
    };
    const timer = setTimeout(() => fail(`it printed no handshake within ${Math.round(timeoutMs / 1000)} s${tail()}`), timeoutMs);
    const onData = (chunk: Buffer): void => {
      buffered += chunk.toString('utf8');
      const nl = buffered.indexOf('\n');
      if (nl < 0) return;
      const parsed = parseHandshake(buffered.slice(0, nl));
      if ('error' in parsed) return fail(parsed.error);
      cleanup();
      // Later stdout (go-plugin forwards it over gRPC stdio) is drained and ignored.
      child.stdout!.resume();
      resolve(parsed.target);
    };
    const onExit = (code: number | null, signal: string | null): void => {
      // Give stderr a moment's data already buffered: the exit event comes after the pipes close.
      fail(`it exited before its handshake (${signal ? `signal ${signal}` : `exit code ${code}`})${tail()}`);
    };
    const onError = (err: Error): void => fail(`it could not be run: ${err.message}`);
    function cleanup(): void {
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      child.off('close', onExit);
      child.off('error', onError);
    }
    child.stdout!.on('data', onData);
    child.on('close', onExit);
    child.on('error', onError);
  });
}
