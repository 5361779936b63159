/**
 * What a failure run (tools/devstack/src/cluster-run.ts) recorded, and the
 * checks it must pass, as pure functions of those records.
 */

/** One carrier callback: which engine replica, when, and the rate it answered (cents). */
export interface CallbackRecord {
  engine: string;
  startedAt: number;
  endedAt: number;
  /** HTTP status; 0 when no answer came. */
  status: number;
  cents?: number;
  error?: string;
}

/** One admin save of the load shop's filter: its fee (cents) is unique to it and grows with `n`. */
export interface SaveRecord {
  n: number;
  cents: number;
  gateway: string;
  startedAt: number;
  endedAt: number;
  /** HTTP status; 0 when no answer came. */
  status: number;
  acknowledged: boolean;
  /** What the merchant was told when it failed. */
  message?: string;
}

/** How long an acknowledged save took to be answered by one engine replica. */
export interface PropagationRecord {
  save: number;
  engine: string;
  ms: number;
}

// The one latency summary lives with the load generator; cluster-run takes it from here.
export { summary } from './load/generate';

/** Every callback answered 200 with a rate. */
export function unansweredCallbacks(callbacks: CallbackRecord[]): CallbackRecord[] {
  return callbacks.filter((c) => c.status !== 200 || c.cents === undefined);
}

/**
 * A rate nobody saved: not the fee of any save begun before the callback
 * ended (a save that failed may still have been stored, so attempts count).
 */
export function unsavedRates(callbacks: CallbackRecord[], saves: SaveRecord[]): CallbackRecord[] {
  return callbacks.filter(
    (c) =>
      c.cents !== undefined && !saves.some((s) => s.cents === c.cents && s.startedAt <= c.endedAt),
  );
}

/**
 * Stale answers: a callback begun at t must answer at least the fee of the
 * last save acknowledged before t - windowMs (fees grow with every save).
 */
export function staleRates(
  callbacks: CallbackRecord[],
  saves: SaveRecord[],
  windowMs: number,
): { callback: CallbackRecord; expectedAtLeast: number }[] {
  const acked = saves.filter((s) => s.acknowledged).sort((a, b) => a.endedAt - b.endedAt);
  const stale: { callback: CallbackRecord; expectedAtLeast: number }[] = [];
  for (const c of callbacks) {
    if (c.cents === undefined) continue;
    let floor: number | undefined;
    for (const s of acked) {
      if (s.endedAt > c.startedAt - windowMs) break;
      floor = Math.max(floor ?? 0, s.cents);
    }
    if (floor !== undefined && c.cents < floor) stale.push({ callback: c, expectedAtLeast: floor });
  }
  return stale;
}

/**
 * Rates going backwards on one engine replica: a callback that began after
 * another one ended answered a lower fee than it.
 */
export function backwardRates(
  callbacks: CallbackRecord[],
): { earlier: CallbackRecord; later: CallbackRecord }[] {
  const found: { earlier: CallbackRecord; later: CallbackRecord }[] = [];
  const byEngine = new Map<string, CallbackRecord[]>();
  for (const c of callbacks)
    if (c.cents !== undefined) byEngine.set(c.engine, [...(byEngine.get(c.engine) ?? []), c]);
  for (const list of byEngine.values()) {
    const byStart = [...list].sort((a, b) => a.startedAt - b.startedAt);
    const byEnd = [...list].sort((a, b) => a.endedAt - b.endedAt);
    let ended = 0;
    let highest: CallbackRecord | undefined;
    for (const c of byStart) {
      while (ended < byEnd.length && byEnd[ended]!.endedAt < c.startedAt) {
        const e = byEnd[ended++]!;
        if (!highest || e.cents! > highest.cents!) highest = e;
      }
      if (highest && c.cents! < highest.cents!) found.push({ earlier: highest, later: c });
    }
  }
  return found;
}

/** Failed saves that did not tell the merchant what happened (a status and a message). */
export function unclearSaveErrors(saves: SaveRecord[]): SaveRecord[] {
  return saves.filter((s) => !s.acknowledged && (s.status === 0 || !s.message));
}
