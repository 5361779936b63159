import { isDeepStrictEqual } from 'node:util';
import {
  diffFilters,
  summariseChanges,
  validateFilters,
  type FilterInput,
  type FilterScope,
  type SnapshotFilter,
} from '@ratesmith/contracts';
import { AppError } from '@ratesmith/kit';
import type {
  FilterVersionKind,
  NewVersion,
  VersionEvent,
  VersionRecord,
} from '../data/version-history.repository';
import type { VersionKeeping } from './versions';

/** A ruleset or a product rule: what owns a filter list. */
export interface ListOwnerRecord {
  id: string;
  name: string;
  filters: SnapshotFilter[];
}

/**
 * What the save path needs of one kind of owner; the rest (validation, the
 * retried save, versions) is the same for every kind.
 */
export interface FilterListOwner<R extends ListOwnerRecord> {
  kind: FilterVersionKind;
  scope: FilterScope;
  notFound: string;
  /** The owner and whether checkout uses it now, in the reads a save needs; null when it is not the shop's. */
  read(shop: string, id: string): Promise<{ record: R; checkout: boolean } | null>;
  /**
   * Replaces the list in one write and publishes the snapshot when checkout
   * reads the owner's list; not_found when the owner is gone meanwhile.
   */
  replace(shop: string, record: R, filters: SnapshotFilter[], checkout: boolean): Promise<R>;
}

/** A version of an owner's list (a save, a restore, a rename, an enable or disable). */
export function listVersion(
  kind: FilterVersionKind,
  record: ListOwnerRecord,
  change: { user: string; event: VersionEvent; checkout: boolean; summary: string },
): NewVersion {
  return {
    kind,
    subjectId: record.id,
    subjectName: record.name,
    ...change,
    content: { name: record.name, filters: record.filters },
  };
}

/**
 * The one save of a filter list, for rulesets and product rules alike (Save
 * All and a version's restore): validates the whole list, then replaces it in
 * one write, then keeps the version; nothing changes if any filter is wrong.
 * A list equal to the stored one (a retried save, a restore of what is there)
 * writes nothing, publishes nothing and keeps no version. A save answers
 * before its version is kept; a restore answers its version's number, so it
 * waits for it.
 */
export async function saveFilterList<R extends ListOwnerRecord>(
  owner: FilterListOwner<R>,
  versions: VersionKeeping,
  request: {
    shop: string;
    id: string;
    inputs: FilterInput[];
    user: string;
    /** A restore names the version it brings back. */
    restoring?: number;
  },
): Promise<{ saved: R; version?: VersionRecord }> {
  const { shop, id, user, restoring } = request;
  const { errors, filters } = validateFilters(request.inputs, owner.scope);
  if (errors.length) throw new AppError('invalid_data', 'Please fix the following errors:', errors);
  const current = await owner.read(shop, id);
  if (!current) throw new AppError('not_found', owner.notFound);
  // The stored list goes through the same canonical form, so stored defaults compare equal.
  const stored = validateFilters(current.record.filters, owner.scope).filters;
  if (isDeepStrictEqual(stored, filters)) return { saved: current.record };
  const saved = await owner.replace(shop, current.record, filters, current.checkout);
  const changes = () => summariseChanges(diffFilters(stored, saved.filters, owner.scope));
  const version = (event: VersionEvent, summary: string) =>
    listVersion(owner.kind, saved, { user, event, checkout: current.checkout, summary });
  if (restoring === undefined) {
    versions.keepLater(shop, () => version('save', changes()));
    return { saved };
  }
  await versions.written(shop);
  const summary = `Restored version ${restoring} (${changes()})`;
  return { saved, version: await versions.keep(shop, version('restore', summary)) };
}
