import type { Snapshot } from '@ratesmith/contracts';
import type { ErrorKind } from '@ratesmith/kit';

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
