// Whether and where a process sends telemetry: the project's `telemetry` block, overridden by the
// standard OpenTelemetry variables (OTEL_EXPORTER_OTLP_*, OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES,
// OTEL_SDK_DISABLED, OTEL_SEMCONV_STABILITY_OPT_IN). Off unless an endpoint is named: nothing leaves
// the machine otherwise. Loads no OpenTelemetry package (the SDK is loaded only once this says on).

import type { TelemetryBlock } from '../config/graph.js';

export type OtlpProtocol = 'http/protobuf' | 'http/json';

export interface TelemetrySettings {
  /** Full URL spans are POSTed to (…/v1/traces). */
  tracesUrl: string;
  /** Full URL metrics are POSTed to (…/v1/metrics); undefined: no metrics. */
  metricsUrl: string | undefined;
  protocol: OtlpProtocol;
  headers: Record<string, string>;
  serviceName: string;
  resourceAttributes: Record<string, string>;
  /** The conventions' opt-in content attributes (messages, tool arguments and results). */
  captureContent: boolean;
  /** OTEL_SEMCONV_STABILITY_OPT_IN holds gen_ai_latest_experimental: no duplicate attributes of older versions. */
  latestOnly: boolean;
}

type Env = Readonly<Record<string, string | undefined>>;

/** The settings, or undefined when telemetry is off (no endpoint, `enabled = false`, OTEL_SDK_DISABLED=true). */
export function telemetrySettings(block: TelemetryBlock | undefined, env: Env): TelemetrySettings | undefined {
  if (truthy(env['OTEL_SDK_DISABLED'])) return undefined;
  if (block?.enabled === false) return undefined;
  const base = nonEmpty(env['OTEL_EXPORTER_OTLP_ENDPOINT']) ?? block?.endpoint;
  const tracesUrl = nonEmpty(env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT']) ?? block?.tracesEndpoint ?? (base ? signalUrl(base, 'traces') : undefined);
  if (tracesUrl === undefined) return undefined;
  const metricsWanted = (nonEmpty(env['OTEL_METRICS_EXPORTER']) ?? (block?.metrics === false ? 'none' : 'otlp')) !== 'none';
  const metricsUrl = metricsWanted ? (nonEmpty(env['OTEL_EXPORTER_OTLP_METRICS_ENDPOINT']) ?? block?.metricsEndpoint ?? (base ? signalUrl(base, 'metrics') : undefined)) : undefined;
  const protocolText = nonEmpty(env['OTEL_EXPORTER_OTLP_TRACES_PROTOCOL']) ?? nonEmpty(env['OTEL_EXPORTER_OTLP_PROTOCOL']) ?? block?.protocol ?? 'http/protobuf';
  const protocol: OtlpProtocol = protocolText === 'http/json' ? 'http/json' : 'http/protobuf';
  const serviceName = nonEmpty(env['OTEL_SERVICE_NAME']) ?? block?.serviceName ?? 'squadron';
  return {
    tracesUrl,
    metricsUrl,
    protocol,
    headers: { ...block?.headers, ...keyValues(env['OTEL_EXPORTER_OTLP_HEADERS']), ...keyValues(env['OTEL_EXPORTER_OTLP_TRACES_HEADERS']) },
    serviceName,
    resourceAttributes: { ...block?.resourceAttributes, ...keyValues(env['OTEL_RESOURCE_ATTRIBUTES']) },
    captureContent: truthy(env['OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT']) || block?.captureContent === true,
    latestOnly: (env['OTEL_SEMCONV_STABILITY_OPT_IN'] ?? '').split(',').map((s) => s.trim()).includes('gen_ai_latest_experimental'),
  };
}

/** The OTLP/HTTP rule: a base endpoint gets `/v1/<signal>` appended (a per-signal one is used as is). */
function signalUrl(base: string, signal: 'traces' | 'metrics'): string {
  return `${base.replace(/\/+$/, '')}/v1/${signal}`;
}

/** `k1=v1,k2=v2` (W3C baggage-like, values percent-decoded), as the OTEL_* variables write them. */
function keyValues(text: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (text ?? '').split(',')) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    const key = pair.slice(0, at).trim();
    let value = pair.slice(at + 1).trim();
    try {
      value = decodeURIComponent(value);
    } catch {
      // kept as written
    }
    if (key !== '') out[key] = value;
  }
  return out;
}

function nonEmpty(v: string | undefined): string | undefined {
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

function truthy(v: string | undefined): boolean {
  return (v ?? '').trim().toLowerCase() === 'true';
}
