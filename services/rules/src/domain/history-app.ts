import { AppError } from '@ratesmith/kit';
import type { FilterVersionKind, VersionRecord } from '../data/version-history.repository';
import { saveFilterList, type FilterListOwner, type ListOwnerRecord } from './filter-list';
import type { Versions } from './versions';

/**
 * The version history's use cases (docs/architecture.md, "Versions"): a
 * subject's versions, one with the one before it, a restore through the same
 * save as Save All, and the shop's latest changes.
 */
export class HistoryApp {
  constructor(
    private readonly deps: {
      versions: Versions;
      owners: { [K in FilterVersionKind]: FilterListOwner<ListOwnerRecord> };
    },
  ) {}

  /** A ruleset's or product rule's versions, newest first; not found when the subject is not the shop's. */
  async list(shop: string, kind: FilterVersionKind, id: string): Promise<VersionRecord[]> {
    const owner = this.deps.owners[kind];
    if (!(await owner.read(shop, id))) throw new AppError('not_found', owner.notFound);
    return this.deps.versions.list(shop, kind, id);
  }

  get(
    shop: string,
    kind: FilterVersionKind,
    id: string,
    number: number,
  ): Promise<{ version: VersionRecord; previous?: VersionRecord }> {
    return this.deps.versions.get(shop, kind, id, number);
  }

  /** Saves the version's filters again, through Save All's checks: a new version. */
  async restore(
    shop: string,
    kind: FilterVersionKind,
    id: string,
    number: number,
    user: string,
  ): Promise<{ saved: ListOwnerRecord; version?: VersionRecord }> {
    const version = await this.deps.versions.version(shop, kind, id, number);
    return saveFilterList(this.deps.owners[kind], this.deps.versions, {
      shop,
      id,
      inputs: version.content.filters ?? [],
      user,
      restoring: number,
    });
  }

  activity(shop: string): Promise<VersionRecord[]> {
    return this.deps.versions.activity(shop);
  }
}
