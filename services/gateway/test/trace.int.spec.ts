// Telemetry first: spans go to memory, and http, express and mongodb are patched
// before the stack loads them.
import { spanExporter, stopTelemetry } from './in-memory-telemetry';
import { SpanKind } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { sentFilter } from '@ratesmith/contracts/testing';
import { startStack, until, type Stack } from './harness';

/**
 * One trace from the merchant's Save All to checkout's data: the gateway's HTTP
 * span, its NATS request, the rules service's handling and MongoDB calls, the
 * snapshot it publishes, and the rate engine picking that snapshot up (the
 * snapshot carries the trace context). Three services, one trace id, every parent
 * link in place.
 */
let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
  await stopTelemetry();
});

const parentOf = (span: ReadableSpan): string | undefined =>
  (span as unknown as { parentSpanContext?: { spanId: string } }).parentSpanContext?.spanId;

/** The chain of spans from `span` up to its root, within the exported ones. */
function ancestry(span: ReadableSpan, all: ReadableSpan[]): ReadableSpan[] {
  const byId = new Map(all.map((s) => [s.spanContext().spanId, s]));
  const chain = [span];
  for (let p = parentOf(span); p && byId.has(p); p = parentOf(byId.get(p)!))
    chain.push(byId.get(p)!);
  return chain;
}

it('follows a Save All from the HTTP request through gateway, rules and MongoDB to the engine', async () => {
  const { body: created } = await stack.api('/api/global-rules', {
    method: 'POST',
    json: { name: 'Traced' },
  });
  const id = created.rule.id as string;
  await stack.api(`/api/global-rules/${id}/toggle`);
  spanExporter.reset();

  const saved = await stack.api(`/api/global-rules/update/${id}`, {
    method: 'POST',
    json: { rules: [sentFilter({ name: 'Flat' })] },
  });
  expect(saved.status).toBe(200);

  const spans = () => spanExporter.getFinishedSpans();
  const server = () =>
    spans().find(
      (s) =>
        s.kind === SpanKind.SERVER &&
        /update/.test(String(s.attributes['http.target'] ?? s.attributes['url.path'] ?? s.name)),
    );
  await until(async () => server(), Boolean, 'the gateway span of the save');
  const traceId = server()!.spanContext().traceId;
  const inTrace = () => spans().filter((s) => s.spanContext().traceId === traceId);
  const apply = () => inTrace().find((s) => s.name === 'snapshot apply');
  await until(async () => apply(), Boolean, "the engine's pickup in the same trace");

  const all = inTrace();
  const names = ancestry(apply()!, all).map((s) => `${s.name} (${SpanKind[s.kind]})`);
  // From the engine back to the merchant's request, each hop the parent of the next.
  expect(names).toEqual([
    'snapshot apply (CONSUMER)',
    'snapshot publish (PRODUCER)',
    expect.stringMatching(/^ratesmith\.rules\.v1\.SaveRulesetFilters process \(SERVER\)$/),
    expect.stringMatching(/^ratesmith\.rules\.v1\.SaveRulesetFilters send \(CLIENT\)$/),
    ...names.slice(4),
  ]);
  // ... up to the gateway's HTTP span of the request.
  expect(ancestry(apply()!, all)).toContain(server());

  // MongoDB: the rules service's write happens inside its handling of the request.
  const rulesSpan = all.find((s) => s.name.endsWith('SaveRulesetFilters process'))!;
  const mongo = all.filter(
    (s) => s.attributes['db.system'] === 'mongodb' || s.attributes['db.system.name'] === 'mongodb',
  );
  expect(mongo.length).toBeGreaterThan(0);
  expect(mongo.some((s) => ancestry(s, all).includes(rulesSpan))).toBe(true);
});
