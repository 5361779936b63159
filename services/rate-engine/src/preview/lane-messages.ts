import type { Snapshot } from '@ratesmith/contracts';
import type { ErrorKind } from '@ratesmith/kit';

/**
 * The lane's nice value (on Linux a thread's priority is its own; lowering it
 * needs no privilege). Against one busy thread at the default on the same core,
 * a thread at 10 gets about a tenth of it, and checkout the other nine. At 19 it
 * got 1.4 %: on a machine shared with other busy processes and no cgroup between
 * them (a developer's machine, the test suite beside another stack), a flooding
 * shop's previews then outlasted the bus's 2 s (7 of 17 in a fresh clone's run).
 */
export const LANE_NICE = 10;

/** What the engine's thread sends the preview lane (./lane.ts, ./lane-worker.ts). */
export type LaneRequest =
  /** A PreviewRates request's bytes, to answer with answerRequest (services/kit/src/rpc.ts). */
  | {
      type: 'answer';
      id: number;
      /** The method's localName. */
      method: string;
      data: Uint8Array;
      encoding: string | undefined;
      limit: number;
      requestId: string;
    }
  /** A large snapshot's bytes from the bucket, to unpack and check. */
  | { type: 'decode'; id: number; value: Uint8Array }
  /** The answer to the lane's `snapshot?`: the shop's entry, none, or why it could not be read. */
  | { type: 'snapshot'; id: number; value?: Uint8Array; writtenAt?: number; error?: string }
  /** End now: the engine's thread answers itself whatever it had handed over. */
  | { type: 'stop' };

/** What the lane sends back. */
export type LaneAnswer =
  | {
      type: 'answered';
      id: number;
      data?: Uint8Array;
      gzipped?: boolean;
      error?: { kind: ErrorKind; message: string; details: string[] };
    }
  /** The snapshot as parseSnapshot made it (structured clone), or why it is unreadable. */
  | { type: 'decoded'; id: number; snapshot?: Snapshot; error?: string }
  /** The lane asks for a shop's snapshot (a preview reads it fresh). */
  | { type: 'snapshot?'; id: number; shop: string };
