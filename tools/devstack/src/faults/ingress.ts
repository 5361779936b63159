import type { ServiceReplica } from '../cluster-services';
import type { JudgedAnswer } from '../load/generate';
import { refusedAtConnect } from './judged-calls';

/**
 * What a Kubernetes Service and an ingress do for the rolling-restart suite:
 * send each call to a ready replica in turn. Readiness is polled every
 * `pollMs` (endpoints follow /readyz with a lag, as kube-proxy's do); a
 * connect refused is tried once on another ready replica, as an ingress
 * retries a failed connect on the next upstream. Nothing else is retried.
 */
export interface Ingress {
  /** Sends the call to a ready replica's URL (the first replica's when none is ready). */
  call(send: (url: string) => Promise<JudgedAnswer>): Promise<JudgedAnswer>;
  /** Connects refused and tried again elsewhere, so far. */
  retriedConnects(): number;
  stop(): void;
}

export function startIngress(replicas: ServiceReplica[], pollMs = 100): Ingress {
  let ready = replicas.filter((r) => r.running());
  let next = 0;
  let retried = 0;
  let stopped = false;
  const poll = async () => {
    while (!stopped) {
      const states = await Promise.all(
        replicas.map((r) =>
          fetch(`http://127.0.0.1:${r.ports.health}/readyz`, { signal: AbortSignal.timeout(1000) })
            .then((res) => res.ok)
            .catch(() => false),
        ),
      );
      ready = replicas.filter((_r, i) => states[i]);
      await new Promise((r) => setTimeout(r, pollMs));
    }
  };
  void poll();
  const pick = (not?: ServiceReplica) => {
    const candidates = ready.filter((r) => r !== not);
    if (candidates.length === 0) return not ?? replicas[0]!;
    next = (next + 1) % candidates.length;
    return candidates[next]!;
  };
  return {
    async call(send) {
      const first = pick();
      const answer = await send(first.url);
      if (!refusedAtConnect(answer)) return answer;
      retried++;
      return send(pick(first).url);
    },
    retriedConnects: () => retried,
    stop: () => {
      stopped = true;
    },
  };
}
