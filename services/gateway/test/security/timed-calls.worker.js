// Sends the noisy-neighbour suite's calls of shop B one after another and times each
// (noisy-neighbour.int.spec.ts). A thread of its own: jest's event loop also runs shop
// A's flood client, whose work would otherwise be counted in B's times, as it would not
// be for two shops' own browsers. workerData: the requests, and the warm-up requests
// sent first, untimed (a thread's first connections and fetch's first call are slow);
// answers: one per request.
const { parentPort, workerData } = require('node:worker_threads');

async function run() {
  for (const request of workerData.warmUp) {
    const res = await fetch(request.url, { ...request, signal: AbortSignal.timeout(30_000) });
    await res.arrayBuffer();
  }
  const answers = [];
  for (const request of workerData.requests) {
    const started = performance.now();
    try {
      const res = await fetch(request.url, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        signal: AbortSignal.timeout(30_000),
      });
      const text = await res.text();
      answers.push({ status: res.status, text, ms: performance.now() - started });
    } catch (err) {
      answers.push({ status: 0, text: String(err), ms: performance.now() - started });
    }
  }
  parentPort.postMessage(answers);
}

void run();
