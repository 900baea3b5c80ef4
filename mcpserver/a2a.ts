// A2A: placeholder replaced below.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AgentHost } from './host.js';

export class A2aEndpoint {
  constructor(private readonly version: string) {}
  matches(_path: string): 'card' | 'rpc' | undefined {
    return undefined;
  }
  async handle(_req: IncomingMessage, _res: ServerResponse, _host: AgentHost, _url: URL, _origin: string): Promise<void> {
    void this.version;
  }
}
