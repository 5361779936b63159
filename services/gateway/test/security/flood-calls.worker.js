// Shop A's flood in the noisy-neighbour suite (noisy-neighbour.int.spec.ts): `loops`
// loops at once, each sending the next of A's calls and waiting for its answer, until
// the suite posts 'stop'; then the calls, in the order they ended, go back.
//
// A thread of its own, at the default priority: jest's event loop stays free, and
// the flood is as dense as this machine lets it be (lowered to nice 19, the thread sent
// about a quarter fewer calls; docs/security.md, S14).
//
// workerData: { templates, loops, tag }. A template is { kind, url, method, headers,
// body?, tagPrefix?, timeoutMs }; where it has a tagPrefix, the call's tag
// (`${tagPrefix} ${n}`) replaces every `tag` marker of its body. Answers are read and
// dropped. A call: { kind, status (0: no answer), tag?, started, ended } (milliseconds
// since the epoch, so calls of several floods compare).
const { parentPort, workerData } = require('node:worker_threads');

const { templates, loops, tag: marker } = workerData;

const now = () => performance.timeOrigin + performance.now();

let done = false;
parentPort.on('message', (message) => {
  if (message === 'stop') done = true;
});

async function call(template, n) {
  const tag = template.tagPrefix === undefined ? undefined : `${template.tagPrefix} ${n}`;
  const started = now();
  let status;
  try {
    const res = await fetch(template.url, {
      method: template.method,
      headers: template.headers,
      body: tag === undefined ? template.body : template.body.replaceAll(marker, tag),
      redirect: 'manual',
      signal: AbortSignal.timeout(template.timeoutMs),
    });
    await res.arrayBuffer();
    status = res.status;
  } catch {
    status = 0;
  }
  return { kind: template.kind, status, tag, started, ended: now() };
}

async function run() {
  const calls = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: loops }, async () => {
      while (!done) {
        const n = next++;
        calls.push(await call(templates[n % templates.length], n));
      }
    }),
  );
  parentPort.postMessage(calls);
}

void run();
