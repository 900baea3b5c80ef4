// The OpenTelemetry SDK of one process: a tracer provider sending spans over OTLP/HTTP (protobuf or
// JSON) in batches, a meter provider for the GenAI client metrics, one resource (service name,
// version, OTEL_RESOURCE_ATTRIBUTES and the block's attributes). Nothing global is registered: the
// run's spans are made with this provider's tracer and their parents passed explicitly.

import { ROOT_CONTEXT, type Context, type Histogram, type Span, type SpanOptions, type Tracer } from '@opentelemetry/api';
import { OTLPMetricExporter as JsonMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPMetricExporter as ProtoMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BatchSpanProcessor, RandomIdGenerator, TracerProvider, type IdGenerator, type SpanProcessor } from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import type { TelemetrySettings } from './settings.js';
import { SEMCONV_SCHEMA_URL, INSTRUMENTATION_NAME } from './attributes.js';

/** Random ids, except the span started while `preset` holds ids: the run's root span, whose ids are stored with the run. */
class PresetIds implements IdGenerator {
  private readonly random = new RandomIdGenerator();
  preset: { traceId: string; spanId: string } | undefined;
  generateTraceId(): string {
    return this.preset?.traceId ?? this.random.generateTraceId();
  }
  generateSpanId(): string {
    return this.preset?.spanId ?? this.random.generateSpanId();
  }
}

export interface TelemetryExport {
  tracer: Tracer;
  settings: TelemetrySettings;
  /** A span whose trace and span ids are given (the run's root span, ended by whichever process finishes the run). */
  startWithIds(ids: { traceId: string; spanId: string }, name: string, options: SpanOptions): Span;
  metrics: { duration: Histogram; tokens: Histogram } | undefined;
  /** Sends what was recorded; resolves once the collector answered (or the export timed out). */
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

const EXPORT_TIMEOUT_MS = 10_000;

export function openExport(settings: TelemetrySettings, version: string, processor?: SpanProcessor): TelemetryExport {
  const resource = resourceFromAttributes({
    ...settings.resourceAttributes,
    [ATTR_SERVICE_NAME]: settings.serviceName,
    [ATTR_SERVICE_VERSION]: version,
    // Tells apart the processes that continued one run's trace (run, resume, workers).
    'process.pid': process.pid,
  });
  const exporterOptions = { url: settings.tracesUrl, headers: settings.headers, timeoutMillis: EXPORT_TIMEOUT_MS };
  const exporter = settings.protocol === 'http/json' ? new JsonTraceExporter(exporterOptions) : new ProtoTraceExporter(exporterOptions);
  const ids = new PresetIds();
  const provider = new TracerProvider({
    resource,
    idGenerator: ids,
    // A fan-out of a thousand items ends thousands of spans in a burst: room for them between exports.
    spanProcessors: [processor ?? new BatchSpanProcessor({ exporter, exportTimeoutMillis: EXPORT_TIMEOUT_MS, maxQueueSize: 16_384, maxExportBatchSize: 1_024 })],
  });
  const tracer = provider.getTracer(INSTRUMENTATION_NAME, version, { schemaUrl: SEMCONV_SCHEMA_URL });
  let meters: MeterProvider | undefined;
  let metrics: TelemetryExport['metrics'];
  if (settings.metricsUrl !== undefined) {
    const metricOptions = { url: settings.metricsUrl, headers: settings.headers, timeoutMillis: EXPORT_TIMEOUT_MS };
    const metricExporter = settings.protocol === 'http/json' ? new JsonMetricExporter(metricOptions) : new ProtoMetricExporter(metricOptions);
    // Exported at flush (each run's end) and otherwise once a minute.
    meters = new MeterProvider({ resource, readers: [new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 60_000, exportTimeoutMillis: EXPORT_TIMEOUT_MS })] });
    const meter = meters.getMeter(INSTRUMENTATION_NAME, version, { schemaUrl: SEMCONV_SCHEMA_URL });
    metrics = {
      // The bucket boundaries the conventions advise for each.
      duration: meter.createHistogram('gen_ai.client.operation.duration', {
        unit: 's',
        description: 'GenAI operation duration',
        advice: { explicitBucketBoundaries: [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92] },
      }),
      tokens: meter.createHistogram('gen_ai.client.token.usage', {
        unit: '{token}',
        description: 'Number of input and output tokens used',
        advice: { explicitBucketBoundaries: [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864] },
      }),
    };
  }
  return {
    tracer,
    settings,
    metrics,
    startWithIds(preset, name, options) {
      ids.preset = preset;
      try {
        return tracer.startSpan(name, options, ROOT_CONTEXT as Context);
      } finally {
        ids.preset = undefined;
      }
    },
    async flush() {
      await Promise.all([provider.forceFlush(), meters?.forceFlush()]);
    },
    async shutdown() {
      await Promise.all([provider.shutdown(), meters?.shutdown()]);
    },
  };
}
