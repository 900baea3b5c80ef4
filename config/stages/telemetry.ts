// The `telemetry { … }` block (docs/concepts/telemetry.md): where a run's OpenTelemetry traces and
// metrics go, over OTLP. At most one per project and unlabeled; without it (and without the
// OTEL_EXPORTER_OTLP_* variables, read by telemetry/settings.ts) nothing is exported.

import type { Block } from '../hcl/ast.js';
import { diagnosticAt, type Diagnostic } from '../hcl/diagnostic.js';
import type { TelemetryBlock } from '../graph.js';
import { decodeBody, locationOf, type BlockSchema } from '../schema.js';
import { scopeFor, type LoadContext } from '../scope.js';
import { checkHttpUrl, readBool, readEnum, readString, readStringMap } from '../values.js';

const SCHEMA: BlockSchema = {
  attributes: {
    enabled: {},
    endpoint: {},
    traces_endpoint: {},
    metrics_endpoint: {},
    protocol: {},
    headers: {},
    service_name: {},
    resource_attributes: {},
    capture_content: {},
    metrics: {},
  },
};

export const TELEMETRY_PROTOCOLS = ['http/protobuf', 'http/json'] as const;

/** Reads the project's telemetry block; a second one is an error (SCH005) at its header. */
export function loadTelemetry(blocks: readonly Block[], ctx: LoadContext): TelemetryBlock | undefined {
  const [block, ...extra] = blocks;
  for (const b of extra) {
    ctx.diags.push(diagnosticAt(b.typeRange, 'error', 'SCH005', 'a project may have at most one telemetry block', `another one starts at ${block!.typeRange.file}:${block!.typeRange.start.line}`));
  }
  if (block === undefined) return undefined;
  if (block.labels.length > 0) {
    ctx.diags.push(diagnosticAt(block.labelRanges[0]!, 'error', 'SCH006', 'the telemetry block takes no label', 'write telemetry { endpoint = "http://localhost:4318" }'));
  }
  const scope = scopeFor(ctx, 'model', 'the telemetry block');
  const body = decodeBody(block.body, SCHEMA, { what: 'the telemetry block', header: block.typeRange }, ctx.diags);
  const a = (name: string) => body.attrs.get(name);
  const out: TelemetryBlock = { location: locationOf(block) };
  const enabled = readBool(a('enabled'), scope, ctx.diags);
  if (enabled !== undefined) out.enabled = enabled;
  for (const [attr, key] of [['endpoint', 'endpoint'], ['traces_endpoint', 'tracesEndpoint'], ['metrics_endpoint', 'metricsEndpoint']] as const) {
    const url = readString(a(attr), scope, ctx.diags);
    if (url !== undefined && checkHttpUrl(url, a(attr)!.expr.range, ctx.diags)) out[key] = url;
  }
  const protocol = readEnum(a('protocol'), TELEMETRY_PROTOCOLS, scope, ctx.diags);
  if (protocol !== undefined) out.protocol = protocol;
  const headers = readStringMap(a('headers'), scope, ctx.diags);
  if (headers !== undefined) out.headers = headers;
  const service = readString(a('service_name'), scope, ctx.diags);
  if (service !== undefined) out.serviceName = service;
  const resource = readStringMap(a('resource_attributes'), scope, ctx.diags);
  if (resource !== undefined) out.resourceAttributes = resource;
  const capture = readBool(a('capture_content'), scope, ctx.diags);
  if (capture !== undefined) out.captureContent = capture;
  const metrics = readBool(a('metrics'), scope, ctx.diags);
  if (metrics !== undefined) out.metrics = metrics;
  // A written endpoint that is wrong is reported as such (SCH010), not also as missing.
  if (a('endpoint') === undefined && a('traces_endpoint') === undefined) checkEndpointSet(out, block, ctx.diags);
  return out;
}

/** An enabled block needs somewhere to send to, unless the environment names it (a warning, not an error). */
function checkEndpointSet(t: TelemetryBlock, block: Block, diags: Diagnostic[]): void {
  if (t.enabled === false || t.endpoint !== undefined || t.tracesEndpoint !== undefined) return;
  diags.push(
    diagnosticAt(
      block.typeRange,
      'warning',
      'TEL001',
      'the telemetry block names no endpoint: nothing is exported unless OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is set',
      'add endpoint = "http://localhost:4318" (an OTLP/HTTP collector)',
    ),
  );
}
