import { AppError, withDeadline, type Logger } from '@ratesmith/kit';
import type {
  FilterVersionKind,
  NewVersion,
  VersionHistoryRepository,
  VersionRecord,
} from '../data/version-history.repository';
import { VersionPruning } from './version-pruning';

const VERSION_NOT_FOUND = 'This version is no longer kept.';
/** The Dashboard's activity card shows this many changes. */
const ACTIVITY_SHOWN = 20;

/** What a change keeps of itself: a save waits for none of it, a restore for its own line. */
export interface VersionKeeping {
  /** Keeps a version now; undefined when it could not be written (logged, never answered). */
  keep(shop: string, version: NewVersion): Promise<VersionRecord | undefined>;
  /** Keeps a version after the answer, built then (see Versions.keepLater). */
  keepLater(shop: string, make: () => NewVersion): void;
  /** Waits for this replica's version writes of the shop. */
  written(shop: string): Promise<void>;
}

/**
 * A shop's version history as the use cases keep and read it (docs/architecture.md,
 * "Versions"): kept after each change, one write after another per shop in this
 * replica, outside the caller's deadline; pruned when the shop is quiet.
 */
export class Versions implements VersionKeeping {
  /** This replica's version writes still running, per shop (see keepLater). */
  private readonly pending = new Map<string, Promise<unknown>>();
  private readonly pruning: VersionPruning;
  /** The version writes of the shop in this process's other thread (see alsoAwait). */
  private other: ((shop: string) => Promise<unknown>) | undefined;

  constructor(
    private readonly deps: {
      history: VersionHistoryRepository;
      logger: Logger;
      /** How long a shop keeps no new version before its old ones are deleted. */
      pruneWhenQuietMs: number;
    },
  ) {
    this.pruning = new VersionPruning({
      history: deps.history,
      logger: deps.logger,
      run: (shop, task) => this.after(shop, task),
      quietMs: deps.pruneWhenQuietMs,
    });
  }

  /**
   * Keeps a version of a change already saved (and published). It comes after
   * the save, so a crash here loses a history line, never the save; a failure
   * is logged, not answered, because the merchant's change did succeed.
   */
  async keep(shop: string, version: NewVersion): Promise<VersionRecord | undefined> {
    try {
      const kept = await this.deps.history.add(shop, version);
      this.pruning.kept(shop, version.kind, version.subjectId);
      return kept;
    } catch (err) {
      this.deps.logger.error(
        { err: (err as Error).message, shop, kind: version.kind, subjectId: version.subjectId },
        'version not kept',
      );
      return undefined;
    }
  }

  /**
   * Keeps a version after the answer: a save's acknowledgement waits for its
   * write and its snapshot, not for its history line (docs/reliability.md,
   * R8/R9: a lost version loses only that line). Per shop the writes run one
   * after another, so numbers follow the order of the saves; `make` builds the
   * version then, so the summary's diff is off the request's path too. It
   * follows an answered save, so the caller's deadline does not stop it.
   */
  keepLater(shop: string, make: () => NewVersion): void {
    // Quiet means no save answered, not no version written: those queue behind a prune.
    this.pruning.postpone(shop);
    this.after(shop, () => this.keep(shop, make()));
  }

  /** Runs `task` after the shop's version writes in this replica, outside any caller's deadline. */
  private after(shop: string, task: () => Promise<unknown>): void {
    const previous = this.pending.get(shop) ?? Promise.resolve();
    const next = previous.then(() => withDeadline(undefined, task));
    this.pending.set(shop, next);
    void next.finally(() => {
      if (this.pending.get(shop) === next) this.pending.delete(shop);
    });
  }

  /**
   * Reads of the history, and a shop's redaction, first wait for this
   * replica's pending version writes of the shop (a version must not land
   * after the shop's data was deleted), in both of its threads: a save the
   * rules lane answered (../lane.ts) keeps its version there.
   */
  async written(shop: string): Promise<void> {
    await this.ownWritten(shop);
    await this.other?.(shop);
  }

  /** This thread's pending version writes of the shop only: what the other thread asks. */
  async ownWritten(shop: string): Promise<void> {
    await this.pending.get(shop);
  }

  /** `written` waits for `other` too: the other thread's writes of the shop. */
  alsoAwait(other: (shop: string) => Promise<unknown>): void {
    this.other = other;
  }

  /** A deleted subject takes its history along, versions still being written included. */
  async forget(shop: string, kind: FilterVersionKind, id: string): Promise<void> {
    await this.written(shop);
    await this.deps.history.deleteSubject(shop, kind, id);
  }

  /** Waits for every pending version write and prune (before the database closes at shutdown). */
  async drain(): Promise<void> {
    this.pruning.pruneAllNow();
    await Promise.all(this.pending.values());
  }

  /** A subject's versions, newest first (the caller checked the subject is the shop's). */
  async list(shop: string, kind: FilterVersionKind, id: string): Promise<VersionRecord[]> {
    await this.written(shop);
    return this.deps.history.list(shop, kind, id);
  }

  /** A version with the one kept before it: what it changed is the difference. */
  async get(
    shop: string,
    kind: FilterVersionKind,
    id: string,
    number: number,
  ): Promise<{ version: VersionRecord; previous?: VersionRecord }> {
    const version = await this.version(shop, kind, id, number);
    return { version, previous: await this.deps.history.before(shop, kind, id, number) };
  }

  /** One version; not found when it is no longer kept. */
  async version(
    shop: string,
    kind: FilterVersionKind,
    id: string,
    number: number,
  ): Promise<VersionRecord> {
    await this.written(shop);
    const version = await this.deps.history.get(shop, kind, id, number);
    if (!version) throw new AppError('not_found', VERSION_NOT_FOUND);
    return version;
  }

  /** The latest changes that reached checkout, newest first. */
  async activity(shop: string): Promise<VersionRecord[]> {
    await this.written(shop);
    return this.deps.history.activity(shop, ACTIVITY_SHOWN);
  }
}
