import { spansOfExport, startTraceReceiver, traceTree } from './trace-receiver';

const span = (id: string, parent: string, name: string, startNs: string, endNs: string) => ({
  traceId: 't1',
  spanId: id,
  parentSpanId: parent,
  name,
  startTimeUnixNano: startNs,
  endTimeUnixNano: endNs,
  attributes: [{ key: 'db.mongodb.collection', value: { stringValue: 'rulesets' } }],
});

const body = {
  resourceSpans: [
    {
      resource: { attributes: [{ key: 'service.name', value: { stringValue: 'rules' } }] },
      scopeSpans: [
        {
          spans: [
            span('b', 'a', 'mongodb.update', '1764390000002500000', '1764390000004000000'),
            span('a', '', 'POST', '1764390000000000000', '1764390000010000000'),
          ],
        },
      ],
    },
  ],
};

describe('the trace receiver', () => {
  it('reads OTLP/JSON spans with nanosecond times past 2^53 as milliseconds', () => {
    const [child, root] = spansOfExport(body);
    expect(root).toMatchObject({ service: 'rules', spanId: 'a', parentSpanId: '' });
    expect(child!.startMs - root!.startMs).toBeCloseTo(2.5, 6);
    expect(child!.endMs - child!.startMs).toBeCloseTo(1.5, 6);
  });

  it('prints a trace as a tree: offsets, durations, children under their parent', () => {
    expect(traceTree(spansOfExport(body), 't1')).toEqual([
      '    0.0 ms +   10.0 ms  POST rulesets  [rules]',
      '    2.5 ms +    1.5 ms    mongodb.update rulesets  [rules]',
    ]);
    expect(traceTree(spansOfExport(body), 'other')).toEqual([]);
  });

  it('takes exports over HTTP and refuses what is not OTLP/JSON', async () => {
    const receiver = await startTraceReceiver();
    try {
      const post = (type: string, text: string) =>
        fetch(`${receiver.endpoint}/v1/traces`, {
          method: 'POST',
          headers: { 'content-type': type },
          body: text,
        });
      expect((await post('application/json', JSON.stringify(body))).status).toBe(200);
      expect((await post('application/x-protobuf', 'x')).status).toBe(415);
      expect((await post('application/json', '{')).status).toBe(400);
      expect(receiver.spans().map((s) => s.spanId)).toEqual(['b', 'a']);
      receiver.clear();
      expect(receiver.spans()).toEqual([]);
    } finally {
      await receiver.stop();
    }
  });
});
