import { authV1, catalogV1 } from '@ratesmith/contracts';
import { AppError } from '@ratesmith/kit';
import { z } from 'zod';
import type { AdminQueries } from '../auth-admin';

/** Pages of 250 read for one list: the values a picker can show (Shopify's are sorted). */
export const PRODUCT_TEXT_PAGES = 4;
/** Values one answer carries. */
export const PRODUCT_TEXTS_SHOWN = 50;
/** How long a shop's list is reused between a merchant's keystrokes. */
const CACHE_MS = 60_000;
const CACHED_LISTS = 1000;

const QUERIES: Record<number, authV1.AdminQuery> = {
  [catalogV1.ProductTextKind.VENDOR]: authV1.AdminQuery.PRODUCT_VENDORS,
  [catalogV1.ProductTextKind.TYPE]: authV1.AdminQuery.PRODUCT_TYPES,
  [catalogV1.ProductTextKind.TAG]: authV1.AdminQuery.PRODUCT_TAGS,
};
const FIELDS: Record<number, string> = {
  [catalogV1.ProductTextKind.VENDOR]: 'productVendors',
  [catalogV1.ProductTextKind.TYPE]: 'productTypes',
  [catalogV1.ProductTextKind.TAG]: 'productTags',
};

const page = z.object({
  nodes: z.array(z.string()),
  pageInfo: z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullable() }),
});

interface List {
  values: string[];
  complete: boolean;
  at: number;
}

/**
 * The shop's product vendors, types and tags as Shopify lists them, for the
 * rule editor's pickers (docs/rates.md, "Item conditions"): up to 1,000 of
 * each, read once a minute a shop at most, searched here (Shopify's lists
 * take no search).
 */
export class ProductTexts {
  private readonly lists = new Map<string, List>();

  constructor(private readonly deps: { admin: AdminQueries; deadlineMs: number }) {}

  async list(
    shop: string,
    kind: catalogV1.ProductTextKind,
    search: string,
    requestId: string,
  ): Promise<{ values: string[]; complete: boolean }> {
    const query = QUERIES[kind];
    if (query === undefined) throw new AppError('invalid_data', 'Ask for vendors, types or tags.');
    if (search.length > 100) throw new AppError('invalid_data', 'The search is too long.');
    const list = await this.read(shop, kind, query, requestId);
    const needle = search.trim().toLowerCase();
    const values = needle
      ? list.values.filter((v) => v.toLowerCase().includes(needle))
      : list.values;
    return { values: values.slice(0, PRODUCT_TEXTS_SHOWN), complete: list.complete };
  }

  private async read(
    shop: string,
    kind: number,
    query: authV1.AdminQuery,
    requestId: string,
  ): Promise<List> {
    const key = `${shop} ${kind}`;
    const cached = this.lists.get(key);
    if (cached && Date.now() - cached.at < CACHE_MS) return cached;
    const deadline = Date.now() + this.deps.deadlineMs;
    const values: string[] = [];
    let after: string | undefined;
    let complete = false;
    for (let n = 0; n < PRODUCT_TEXT_PAGES; n++) {
      const reply = z
        .record(z.string(), page)
        .safeParse(
          await this.deps.admin.run(shop, query, after ? { after } : {}, deadline, requestId),
        );
      const got = reply.success ? reply.data[FIELDS[kind]!] : undefined;
      if (!got) throw new AppError('unavailable', 'Shopify answered in an unexpected shape.');
      values.push(...got.nodes);
      if (!got.pageInfo.hasNextPage || !got.pageInfo.endCursor) {
        complete = true;
        break;
      }
      after = got.pageInfo.endCursor;
    }
    const list = { values, complete, at: Date.now() };
    if (this.lists.size >= CACHED_LISTS) this.lists.clear();
    this.lists.set(key, list);
    return list;
  }
}
