import {
  validateFilters,
  type FilterDraft,
  type FilterScope,
  type SnapshotFilter,
} from '@ratesmith/contracts';
import { draftCondition, draftFilter, draftGroup } from '@ratesmith/contracts/testing';
import type { NewVersion, VersionRecord } from '../data/version-history.repository';
import { saveFilterList, type FilterListOwner, type ListOwnerRecord } from './filter-list';
import type { VersionKeeping } from './versions';

/**
 * The one save of a filter list, without NATS or a database: an owner kept in
 * memory (its reads and writes counted) and a version keeper that records
 * what it was asked. The owners' own reads, writes and publishing are the
 * integration suites' (services/gateway/test/global-rules.int.spec.ts,
 * product-rule-filters.int.spec.ts, versions.int.spec.ts).
 */

const SHOP = 'a-shop.myshopify.com';

class MemoryOwner implements FilterListOwner<ListOwnerRecord> {
  readonly notFound: string;
  records = new Map<string, ListOwnerRecord>();
  reads = 0;
  writes: { filters: SnapshotFilter[]; checkout: boolean }[] = [];
  /** What `read` says of checkout. */
  checkout = true;
  /** The owner is deleted between the read and the write. */
  goneBeforeWrite = false;

  constructor(
    readonly kind: 'ruleset' | 'product_rule',
    readonly scope: FilterScope,
  ) {
    this.notFound = `${kind} not found`;
  }

  async read(_shop: string, id: string) {
    this.reads++;
    const record = this.records.get(id);
    return record ? { record, checkout: this.checkout } : null;
  }

  async replace(
    _shop: string,
    record: ListOwnerRecord,
    filters: SnapshotFilter[],
    checkout: boolean,
  ) {
    if (this.goneBeforeWrite) throw Object.assign(new Error(this.notFound), { kind: 'not_found' });
    this.writes.push({ filters, checkout });
    const saved = { ...record, filters };
    this.records.set(record.id, saved);
    return saved;
  }
}

class RecordingVersions implements VersionKeeping {
  later: (() => NewVersion)[] = [];
  kept: NewVersion[] = [];
  waited = 0;
  async keep(_shop: string, version: NewVersion): Promise<VersionRecord> {
    this.kept.push(version);
    return { ...version, number: 7, at: new Date(0) } as VersionRecord;
  }
  keepLater(_shop: string, make: () => NewVersion): void {
    this.later.push(make);
  }
  async written(): Promise<void> {
    this.waited++;
  }
}

const canonical = (drafts: FilterDraft[], scope: FilterScope) =>
  validateFilters(drafts, scope).filters;

/** A stored list keeps its ids, and the editor sends them back: fixed here. */
const withIds = (filter: FilterDraft): FilterDraft => ({
  ...filter,
  raw_query: {
    ...filter.raw_query!,
    id: 'g1',
    rules: filter.raw_query!.rules.map((rule, i) => ({ ...rule, id: `c${i + 1}` })),
  },
});
const cheap = withIds(draftFilter({ id: 'f1' }));
const dearer = withIds(draftFilter({ id: 'f1', action_data: 5.99 }));

describe.each([
  ['ruleset', 'ruleset'],
  ['product_rule', 'product'],
] as const)('saving the filter list of a %s', (kind, scope) => {
  let owner: MemoryOwner;
  let versions: RecordingVersions;
  const save = (inputs: FilterDraft[], restoring?: number) =>
    saveFilterList(owner, versions, { shop: SHOP, id: 'r1', inputs, user: 'Ann', restoring });

  beforeEach(() => {
    owner = new MemoryOwner(kind, scope);
    owner.records.set('r1', { id: 'r1', name: 'Main', filters: canonical([cheap], scope) });
    versions = new RecordingVersions();
  });

  it('refuses a list with a problem before reading anything, and writes nothing', async () => {
    const broken = draftFilter({
      raw_query: draftGroup([draftCondition('cart_price', 'less_than', 'x')]),
    });
    await expect(save([cheap, broken])).rejects.toMatchObject({
      kind: 'invalid_data',
      details: [expect.stringMatching(/^Rule #2: Cart Price must be an amount/)],
    });
    expect([owner.reads, owner.writes, versions.later]).toEqual([0, [], []]);
  });

  it('refuses more filters than its scope allows, with the same words for each kind', async () => {
    const most = scope === 'ruleset' ? 100 : 50;
    await expect(save(Array.from({ length: most + 1 }, () => draftFilter()))).rejects.toMatchObject(
      {
        kind: 'invalid_data',
        details: [expect.stringContaining(`at most ${most} rules`)],
      },
    );
  });

  it("answers not found for another shop's or an unknown owner", async () => {
    await expect(
      saveFilterList(owner, versions, { shop: SHOP, id: 'r2', inputs: [cheap], user: 'Ann' }),
    ).rejects.toMatchObject({ kind: 'not_found', message: owner.notFound });
    expect(owner.writes).toEqual([]);
  });

  it('writes a changed list once, with what checkout reads of it, and keeps the version after the answer', async () => {
    owner.checkout = kind === 'ruleset';
    const { saved, version } = await save([dearer]);
    expect(saved.filters).toEqual(canonical([dearer], scope));
    expect(owner.writes).toEqual([
      { filters: canonical([dearer], scope), checkout: owner.checkout },
    ]);
    expect([version, versions.kept, versions.waited]).toEqual([undefined, [], 0]);
    expect(versions.later).toHaveLength(1);
    expect(versions.later[0]!()).toEqual({
      kind,
      subjectId: 'r1',
      subjectName: 'Main',
      user: 'Ann',
      event: 'save',
      checkout: owner.checkout,
      summary: '1 rule change: 1 changed',
      content: { name: 'Main', filters: canonical([dearer], scope) },
    });
    expect(owner.reads).toBe(1);
  });

  it('treats a retried save of the same list (in any spelling of it) as done: no write, no version', async () => {
    const spelled = withIds(
      draftFilter({ id: 'f1', action_data: '4.99' as never, name: ' Cheap carts ' }),
    );
    for (const inputs of [[cheap], [spelled]]) {
      const { saved } = await save(inputs);
      expect(saved).toBe(owner.records.get('r1'));
    }
    expect([owner.writes, versions.later, versions.kept]).toEqual([[], [], []]);
  });

  it('restores through the same checks, waiting for the history to answer its version', async () => {
    const { saved, version } = await save([dearer], 3);
    expect(saved.filters).toEqual(canonical([dearer], scope));
    expect(versions.waited).toBe(1);
    expect(versions.later).toEqual([]);
    expect(versions.kept).toEqual([
      expect.objectContaining({
        event: 'restore',
        summary: expect.stringMatching(/^Restored version 3 \(/),
      }),
    ]);
    expect(version?.number).toBe(7);
    // A restore of what is there is a retried save: nothing written, no version.
    await save([dearer], 4);
    expect(owner.writes).toHaveLength(1);
    expect(versions.kept).toHaveLength(1);
  });

  it('keeps no version when the owner went away before the write', async () => {
    owner.goneBeforeWrite = true;
    await expect(save([dearer])).rejects.toMatchObject({ kind: 'not_found' });
    expect([versions.later, versions.kept]).toEqual([[], []]);
  });
});
