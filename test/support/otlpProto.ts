// A decoder of the OTLP protobuf messages the tests receive (ExportTraceServiceRequest and
// ExportMetricsServiceRequest, opentelemetry-proto v1), from the wire format itself: varints,
// length-delimited fields, fixed32/fixed64. Only the fields the tests read are kept; the rest is
// skipped by wire type, as any protobuf reader does. No generated code and no package.

type Field = { no: number; wire: number; varint?: bigint; bytes?: Uint8Array; fixed?: Buffer };

function* fields(buf: Uint8Array): Generator<Field> {
  let at = 0;
  const varint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      const byte = buf[at++];
      if (byte === undefined) throw new Error('truncated varint');
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
      shift += 7n;
    }
  };
  while (at < buf.length) {
    const key = Number(varint());
    const no = key >>> 3;
    const wire = key & 7;
    if (wire === 0) yield { no, wire, varint: varint() };
    else if (wire === 2) {
      const len = Number(varint());
      yield { no, wire, bytes: buf.subarray(at, at + len) };
      at += len;
    } else if (wire === 1) {
      yield { no, wire, fixed: Buffer.from(buf.subarray(at, at + 8)) };
      at += 8;
    } else if (wire === 5) {
      yield { no, wire, fixed: Buffer.from(buf.subarray(at, at + 4)) };
      at += 4;
    } else throw new Error(`unsupported wire type ${wire}`);
  }
}

const text = (b: Uint8Array | undefined): string => Buffer.from(b ?? []).toString('utf8');
const hex = (b: Uint8Array | undefined): string => Buffer.from(b ?? []).toString('hex');

export type AttrValue = string | number | boolean | AttrValue[] | null;

function anyValue(buf: Uint8Array): AttrValue {
  for (const f of fields(buf)) {
    if (f.no === 1) return text(f.bytes);
    if (f.no === 2) return f.varint === 1n;
    if (f.no === 3) return Number(BigInt.asIntN(64, f.varint!));
    if (f.no === 4) return f.fixed!.readDoubleLE(0);
    if (f.no === 5) return [...fields(f.bytes!)].filter((v) => v.no === 1).map((v) => anyValue(v.bytes!));
  }
  return null;
}

function keyValue(buf: Uint8Array): [string, AttrValue] {
  let key = '';
  let value: AttrValue = null;
  for (const f of fields(buf)) {
    if (f.no === 1) key = text(f.bytes);
    if (f.no === 2) value = anyValue(f.bytes!);
  }
  return [key, value];
}

export interface DecodedSpan {
  traceId: string;
  spanId: string;
  /** '' for a root span. */
  parentSpanId: string;
  name: string;
  kind: number;
  startNanos: bigint;
  endNanos: bigint;
  attributes: Record<string, AttrValue>;
  events: { name: string; attributes: Record<string, AttrValue> }[];
  status: { code: number; message: string };
  resource: Record<string, AttrValue>;
  scope: string;
}

function attributesOf(list: Uint8Array[]): Record<string, AttrValue> {
  return Object.fromEntries(list.map(keyValue));
}

function span(buf: Uint8Array, resource: Record<string, AttrValue>, scope: string): DecodedSpan {
  const s: DecodedSpan = { traceId: '', spanId: '', parentSpanId: '', name: '', kind: 0, startNanos: 0n, endNanos: 0n, attributes: {}, events: [], status: { code: 0, message: '' }, resource, scope };
  const attrs: Uint8Array[] = [];
  for (const f of fields(buf)) {
    if (f.no === 1) s.traceId = hex(f.bytes);
    else if (f.no === 2) s.spanId = hex(f.bytes);
    else if (f.no === 4) s.parentSpanId = hex(f.bytes);
    else if (f.no === 5) s.name = text(f.bytes);
    else if (f.no === 6) s.kind = Number(f.varint);
    else if (f.no === 7) s.startNanos = f.fixed!.readBigUInt64LE(0);
    else if (f.no === 8) s.endNanos = f.fixed!.readBigUInt64LE(0);
    else if (f.no === 9) attrs.push(f.bytes!);
    else if (f.no === 11) {
      let name = '';
      const eventAttrs: Uint8Array[] = [];
      for (const e of fields(f.bytes!)) {
        if (e.no === 2) name = text(e.bytes);
        if (e.no === 3) eventAttrs.push(e.bytes!);
      }
      s.events.push({ name, attributes: attributesOf(eventAttrs) });
    } else if (f.no === 15) {
      for (const st of fields(f.bytes!)) {
        if (st.no === 2) s.status.message = text(st.bytes);
        if (st.no === 3) s.status.code = Number(st.varint);
      }
    }
  }
  s.attributes = attributesOf(attrs);
  return s;
}

function resourceOf(buf: Uint8Array): Record<string, AttrValue> {
  return attributesOf([...fields(buf)].filter((f) => f.no === 1).map((f) => f.bytes!));
}

/** ExportTraceServiceRequest → its spans, each with its resource's attributes and scope name. */
export function decodeTraceRequest(body: Uint8Array): DecodedSpan[] {
  const out: DecodedSpan[] = [];
  for (const rs of fields(body)) {
    if (rs.no !== 1) continue;
    let resource: Record<string, AttrValue> = {};
    const scopes: Uint8Array[] = [];
    for (const f of fields(rs.bytes!)) {
      if (f.no === 1) resource = resourceOf(f.bytes!);
      if (f.no === 2) scopes.push(f.bytes!);
    }
    for (const ss of scopes) {
      let scope = '';
      const spans: Uint8Array[] = [];
      for (const f of fields(ss)) {
        if (f.no === 1) for (const sf of fields(f.bytes!)) if (sf.no === 1) scope = text(sf.bytes);
        if (f.no === 2) spans.push(f.bytes!);
      }
      for (const s of spans) out.push(span(s, resource, scope));
    }
  }
  return out;
}

export interface DecodedMetric {
  name: string;
  unit: string;
  /** Histogram data points: their attributes and count. */
  points: { attributes: Record<string, AttrValue>; count: number; sum: number }[];
}

/** ExportMetricsServiceRequest → its histogram metrics (the GenAI client metrics are histograms). */
export function decodeMetricsRequest(body: Uint8Array): DecodedMetric[] {
  const out: DecodedMetric[] = [];
  for (const rm of fields(body)) {
    if (rm.no !== 1) continue;
    for (const sm of fields(rm.bytes!)) {
      if (sm.no !== 2) continue;
      for (const m of fields(sm.bytes!)) {
        if (m.no !== 2) continue;
        const metric: DecodedMetric = { name: '', unit: '', points: [] };
        for (const f of fields(m.bytes!)) {
          if (f.no === 1) metric.name = text(f.bytes);
          if (f.no === 3) metric.unit = text(f.bytes);
          if (f.no === 9) {
            for (const dp of fields(f.bytes!)) {
              if (dp.no !== 1) continue;
              const attrs: Uint8Array[] = [];
              let count = 0;
              let sum = 0;
              for (const p of fields(dp.bytes!)) {
                if (p.no === 9) attrs.push(p.bytes!);
                if (p.no === 4) count = Number(p.fixed!.readBigUInt64LE(0));
                if (p.no === 5) sum = p.fixed!.readDoubleLE(0);
              }
              metric.points.push({ attributes: attributesOf(attrs), count, sum });
            }
          }
        }
        out.push(metric);
      }
    }
  }
  return out;
}
