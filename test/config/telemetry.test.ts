// The `telemetry { … }` block: what it loads to, its mistakes as diagnostics at their positions, and
// how telemetry/settings.ts combines it with the standard OTEL_* variables (off without an endpoint).

import { afterAll, describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SEMCONV_GENAI_VERSION } from '../../telemetry/attributes.js';
import { telemetrySettings } from '../../telemetry/settings.js';
import { at, codes, loadHcl, removeTempProjects, withMission } from './support.js';

afterAll(removeTempProjects);

const task = '  task "a" {\n    objective = "x"\n    tools     = [builtins.utils.current_time]\n  }\n';

describe('the telemetry block', () => {
  test('loads every attribute, a header from a secret variable included', () => {
    const src = `variable "key" {\n  secret = true\n}\ntelemetry {\n  endpoint            = "https://otlp.example.com"\n  protocol            = "http/json"\n  headers             = { "x-api-key" = vars.key }\n  service_name        = "agents"\n  resource_attributes = { "deployment.environment" = "prod" }\n  capture_content     = true\n  metrics             = false\n}\n${withMission(task)}`;
    const r = loadHcl(src, { env: { SQUADRON_VAR_key: 'secret-value-1' } });
    expect(codes(r)).toEqual([]);
    expect(r.graph!.telemetry).toMatchObject({
      endpoint: 'https://otlp.example.com',
      protocol: 'http/json',
      headers: { 'x-api-key': 'secret-value-1' },
      serviceName: 'agents',
      resourceAttributes: { 'deployment.environment': 'prod' },
      captureContent: true,
      metrics: false,
    });
    // The header's value is a secret: the CLI masks it wherever it prints.
    expect(r.secrets?.some((s) => s.value === 'secret-value-1')).toBe(true);
  });

  test('reports a label, an unknown attribute, a wrong protocol, a URL that is not http, and a second block', () => {
    const src = `telemetry "x" {\n  endpoint = "ftp://collector"\n  protocl  = "grpc"\n  protocol = "grpc"\n}\ntelemetry {\n  endpoint = "http://127.0.0.1:4318"\n}\n${withMission(task)}`;
    const r = loadHcl(src);
    expect(codes(r)).toEqual([
      `SCH006@${at(src, '"x"')}`,
      `SCH010@${at(src, '"ftp://collector"')}`,
      `SCH001@${at(src, 'protocl')}`,
      `SCH010@${at(src, '"grpc"', 1)}`,
      `SCH005@${at(src, 'telemetry {')}`,
    ]);
    expect(r.diagnostics.find((d) => d.code === 'SCH001')?.hint).toContain('protocol');
    expect(r.diagnostics.find((d) => d.message.includes('grpc'))?.message).toBe('protocol must be one of "http/protobuf", "http/json"; got "grpc"');
  });

  test('TEL001 warns at a block that names no endpoint; enabled = false does not', () => {
    const src = `telemetry {\n  service_name = "agents"\n}\n${withMission(task)}`;
    expect(codes(loadHcl(src))).toEqual([`w:TEL001@${at(src, 'telemetry')}`]);
    expect(codes(loadHcl(`telemetry {\n  enabled = false\n}\n${withMission(task)}`))).toEqual([]);
  });

  test('a misspelled block name is suggested', () => {
    const r = loadHcl(`telemtry {\n}\n${withMission(task)}`);
    expect(r.diagnostics[0]).toMatchObject({ code: 'SCH002' });
    expect(r.diagnostics[0]!.hint).toContain('telemetry');
  });
});

describe('telemetry settings', () => {
  test('off without an endpoint, with enabled = false, or with OTEL_SDK_DISABLED=true', () => {
    expect(telemetrySettings(undefined, {})).toBeUndefined();
    expect(telemetrySettings({ location: loc, serviceName: 'x' }, {})).toBeUndefined();
    expect(telemetrySettings({ location: loc, enabled: false }, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' })).toBeUndefined();
    expect(telemetrySettings({ location: loc, endpoint: 'http://c:4318' }, { OTEL_SDK_DISABLED: 'true' })).toBeUndefined();
  });

  test('signal paths are appended to a base endpoint, a per-signal endpoint is used as is, and the variables win over the block', () => {
    const block = { location: loc, endpoint: 'http://block:4318/', serviceName: 'from-block', headers: { a: '1' }, resourceAttributes: { team: 'x' } };
    expect(telemetrySettings(block, {})).toMatchObject({
      tracesUrl: 'http://block:4318/v1/traces',
      metricsUrl: 'http://block:4318/v1/metrics',
      protocol: 'http/protobuf',
      serviceName: 'from-block',
      captureContent: false,
      latestOnly: false,
    });
    const s = telemetrySettings(block, {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://env:4318/custom',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'from-env',
      OTEL_EXPORTER_OTLP_HEADERS: 'b=2,a=3',
      OTEL_RESOURCE_ATTRIBUTES: 'team=y,region=eu%20west',
      OTEL_METRICS_EXPORTER: 'none',
      OTEL_SEMCONV_STABILITY_OPT_IN: 'gen_ai_latest_experimental',
      OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true',
    });
    expect(s).toEqual({
      tracesUrl: 'http://env:4318/custom',
      metricsUrl: undefined,
      protocol: 'http/json',
      headers: { a: '3', b: '2' },
      serviceName: 'from-env',
      resourceAttributes: { team: 'y', region: 'eu west' },
      captureContent: true,
      latestOnly: true,
    });
  });
});

test('the docs name the version of the conventions the spans follow', () => {
  const page = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'concepts', 'telemetry.md'), 'utf8');
  expect(SEMCONV_GENAI_VERSION).toBe('semantic-conventions-genai v0.1.0');
  expect(page.replace(/\s+/g, ' ')).toContain(SEMCONV_GENAI_VERSION);
});

const loc = { file: 'main.hcl', line: 1, column: 1 } as never;
