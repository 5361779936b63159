import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A receiver for the services' traces (OTLP over HTTP, JSON: what
 * `OTEL_EXPORTER_OTLP_ENDPOINT` makes services/kit/src/telemetry.ts send), so a
 * bench can print where one request's time went, span by span, without a
 * collector. Loopback only; it keeps at most `MAX_SPANS` spans.
 */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  startMs: number;
  endMs: number;
  attributes: Record<string, string | number | boolean>;
}

export interface TraceReceiver {
  /** Give it to the services as OTEL_EXPORTER_OTLP_ENDPOINT. */
  endpoint: string;
  spans(): readonly ReceivedSpan[];
  /** Forgets every span received so far. */
  clear(): void;
  stop(): Promise<void>;
}

const MAX_SPANS = 200_000;
/** One export of a batch processor is far smaller; anything larger is refused. */
const MAX_BODY = 16 * 1024 * 1024;

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  startTimeUnixNano: string | number;
  endTimeUnixNano: string | number;
  attributes?: { key: string; value: OtlpValue }[];
}
interface OtlpExport {
  resourceSpans?: {
    resource?: { attributes?: { key: string; value: OtlpValue }[] };
    scopeSpans?: { spans?: OtlpSpan[] }[];
  }[];
}

function valueOf(v: OtlpValue): string | number | boolean {
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  return v.boolValue ?? '';
}

/** Nanoseconds since the epoch (a decimal string past 2^53) as milliseconds. */
function nanosToMs(nanos: string | number): number {
  const text = String(nanos);
  return Number(text.slice(0, -6) || '0') + Number(text.slice(-6)) / 1e6;
}

/** The spans of one OTLP/JSON export body. */
export function spansOfExport(body: OtlpExport): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const resource of body.resourceSpans ?? []) {
    const service = String(
      valueOf(
        resource.resource?.attributes?.find((a) => a.key === 'service.name')?.value ?? {
          stringValue: '?',
        },
      ),
    );
    for (const scope of resource.scopeSpans ?? [])
      for (const span of scope.spans ?? [])
        spans.push({
          service,
          traceId: span.traceId,
          spanId: span.spanId,
          parentSpanId: span.parentSpanId ?? '',
          name: span.name,
          startMs: nanosToMs(span.startTimeUnixNano),
          endMs: nanosToMs(span.endTimeUnixNano),
          attributes: Object.fromEntries(
            (span.attributes ?? []).map((a) => [a.key, valueOf(a.value)]),
          ),
        });
  }
  return spans;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) req.destroy(new Error('export too large'));
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startTraceReceiver(): Promise<TraceReceiver> {
  let received: ReceivedSpan[] = [];
  const server = createServer((req, res) => {
    const json = (req.headers['content-type'] ?? '').includes('json');
    if (req.method !== 'POST' || req.url !== '/v1/traces' || !json) {
      res.writeHead(json ? 404 : 415).end();
      return;
    }
    readBody(req)
      .then((text) => {
        const spans = spansOfExport(JSON.parse(text) as OtlpExport);
        received.push(...spans.slice(0, Math.max(0, MAX_SPANS - received.length)));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      })
      .catch(() => res.writeHead(400).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans: () => received,
    clear: () => {
      received = [];
    },
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * One trace as indented lines: each span's offset from the trace's first
 * start, its duration and its service, children under their parent in start
 * order. Spans whose parent was not received are printed at the top level.
 */
export function traceTree(spans: readonly ReceivedSpan[], traceId: string): string[] {
  const own = spans.filter((s) => s.traceId === traceId).sort((a, b) => a.startMs - b.startMs);
  if (!own.length) return [];
  const t0 = own[0]!.startMs;
  const ids = new Set(own.map((s) => s.spanId));
  const children = new Map<string, ReceivedSpan[]>();
  for (const span of own) {
    const parent = ids.has(span.parentSpanId) ? span.parentSpanId : '';
    children.set(parent, [...(children.get(parent) ?? []), span]);
  }
  const lines: string[] = [];
  const walk = (parent: string, depth: number) => {
    for (const span of children.get(parent) ?? []) {
      const at = (span.startMs - t0).toFixed(1).padStart(7);
      const took = (span.endMs - span.startMs).toFixed(1).padStart(7);
      const collection =
        span.attributes['db.mongodb.collection'] ?? span.attributes['db.collection.name'];
      const what = collection ? `${span.name} ${String(collection)}` : span.name;
      lines.push(`${at} ms +${took} ms  ${'  '.repeat(depth)}${what}  [${span.service}]`);
      walk(span.spanId, depth + 1);
    }
  };
  walk('', 0);
  return lines;
}
