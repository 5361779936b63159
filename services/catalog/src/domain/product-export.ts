import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { authV1, shopifyIdDigits, type rulesV1 } from '@ratesmith/contracts';
import { AppError, type ClientOf, type Logger } from '@ratesmith/kit';
import type { MessageInitShape } from '@bufbuild/protobuf';
import { z } from 'zod';
import type { AdminQueries } from '../auth-admin';
import { productFactNode } from './product-facts';

/** Products a PutProductFacts carries: a few hundred bytes each, far under the bus's 1 MB. */
export const EXPORT_BATCH = 500;
/** Exports one replica runs at once; more are refused (the rules service asks again later). */
export const MAX_RUNNING_EXPORTS = 20;

export interface ExportLimits {
  /** Between two status reads of the bulk operation. */
  pollMs: number;
  /** The whole export, from start to the last batch sent. */
  totalMs: number;
  /** The file: Shopify's lines are ~150 bytes, so 100,000 products are ~15 MB. */
  maxFileBytes: number;
}

export const DEFAULT_EXPORT_LIMITS: ExportLimits = {
  pollMs: 2000,
  totalMs: 30 * 60_000,
  maxFileBytes: 512 * 1024 * 1024,
};

const startReply = z.object({
  bulkOperationRunQuery: z.object({
    bulkOperation: z.object({ id: z.string(), status: z.string() }).nullable(),
    userErrors: z.array(z.object({ message: z.string(), code: z.string().nullish() })),
  }),
});
const statusReply = z.object({
  bulkOperation: z
    .object({
      id: z.string(),
      status: z.string(),
      errorCode: z.string().nullish(),
      url: z.string().nullish(),
    })
    .nullable(),
});

type Fact = MessageInitShape<typeof rulesV1.ProductFactSchema>;

/**
 * The product index's first fill (docs/rates.md, "The product index"): one
 * Shopify bulk export of every product's type, tags and updatedAt, polled
 * until its JSONL file is ready, read line by line and sent to the rules
 * service in batches, then a last message that says the export finished.
 * The file is fetched only from an allowed origin (Shopify's storage, or the
 * double's in development), with a time and a size limit.
 */
export class ProductExports {
  private readonly running = new Map<string, Promise<void>>();

  constructor(
    private readonly deps: {
      admin: AdminQueries;
      rules: ClientOf<typeof rulesV1.RulesService>;
      logger: Logger;
      /** Origins a bulk file may be read from (`https://storage.googleapis.com`). */
      fileOrigins: readonly string[];
      limits?: ExportLimits;
    },
  ) {}

  /** Starts the shop's export unless one runs here: false then. */
  start(shop: string, requestId: string): boolean {
    if (this.running.has(shop)) return false;
    if (this.running.size >= MAX_RUNNING_EXPORTS)
      throw new AppError('unavailable', 'Too many product exports are running. Try again later.');
    const run = this.run(shop, requestId)
      .catch((err: Error) =>
        this.deps.logger.warn({ shop, err: err.message }, 'product export failed'),
      )
      .finally(() => this.running.delete(shop));
    this.running.set(shop, run);
    return true;
  }

  /** Resolves when the shop's running export ends (tests, shutdown). */
  settled(shop: string): Promise<void> {
    return this.running.get(shop) ?? Promise.resolve();
  }

  private async run(shop: string, requestId: string): Promise<void> {
    const limits = this.deps.limits ?? DEFAULT_EXPORT_LIMITS;
    const deadline = Date.now() + limits.totalMs;
    const admin = <T>(query: authV1.AdminQuery, variables: Record<string, unknown>) =>
      this.deps.admin.run<T>(
        shop,
        query,
        variables,
        Math.min(deadline, Date.now() + 10_000),
        requestId,
      );

    const started = startReply.parse(
      await admin(authV1.AdminQuery.PRODUCT_EXPORT_START, {}),
    ).bulkOperationRunQuery;
    if (!started.bulkOperation)
      throw new Error(`Shopify did not start the export: ${started.userErrors[0]?.message ?? '?'}`);
    const id = started.bulkOperation.id;

    let url: string | null | undefined;
    for (;;) {
      if (Date.now() > deadline) throw new Error('the export did not finish in time');
      await new Promise((resolve) => setTimeout(resolve, limits.pollMs));
      const op = statusReply.parse(
        await admin(authV1.AdminQuery.PRODUCT_EXPORT_STATUS, { id }),
      ).bulkOperation;
      if (!op) throw new Error('Shopify no longer knows the export');
      if (op.status === 'COMPLETED') {
        url = op.url;
        break;
      }
      if (op.status !== 'CREATED' && op.status !== 'RUNNING')
        throw new Error(`the export ended ${op.status} (${op.errorCode ?? 'no code'})`);
    }

    const sent = url ? await this.sendFile(shop, url, deadline, limits, requestId) : 0;
    await this.put(shop, [], true, deadline, requestId);
    this.deps.logger.info({ shop, products: sent }, 'product export finished');
  }

  /** Reads the file line by line, sending batches; answers how many products it sent. */
  private async sendFile(
    shop: string,
    url: string,
    deadline: number,
    limits: ExportLimits,
    requestId: string,
  ): Promise<number> {
    if (!this.deps.fileOrigins.includes(new URL(url).origin))
      throw new Error(`the export's file is not at an allowed origin (${new URL(url).origin})`);
    const res = await fetch(url, {
      signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())),
    });
    if (!res.ok || !res.body) throw new Error(`the export's file answered ${res.status}`);
    let bytes = 0;
    let sent = 0;
    let batch: Fact[] = [];
    const lines = createInterface({
      input: Readable.fromWeb(res.body as never),
      crlfDelay: Infinity,
    });
    for await (const line of lines) {
      bytes += Buffer.byteLength(line) + 1;
      if (bytes > limits.maxFileBytes) throw new Error("the export's file is too large");
      if (!line.trim()) continue;
      const fact = factOfLine(line);
      if (!fact) throw new Error('the export has a line that is no product');
      batch.push(fact);
      if (batch.length === EXPORT_BATCH) {
        await this.put(shop, batch, false, deadline, requestId);
        sent += batch.length;
        batch = [];
      }
    }
    if (batch.length) await this.put(shop, batch, false, deadline, requestId);
    return sent + batch.length;
  }

  private async put(
    shop: string,
    products: Fact[],
    exportFinished: boolean,
    deadline: number,
    requestId: string,
  ): Promise<void> {
    await this.deps.rules.call(
      'putProductFacts',
      { shop, products, removedProductIds: [], exportBatch: !exportFinished, exportFinished },
      { requestId, timeoutMs: Math.max(1, Math.min(10_000, deadline - Date.now())) },
    );
  }
}

/** One JSONL line of the export as a fact; undefined when it is not a product of that shape. */
function factOfLine(line: string): Fact | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  const node = productFactNode.safeParse(value);
  if (!node.success || !node.data) return undefined;
  const productId = shopifyIdDigits(node.data.id, { resource: 'Product' });
  if (!productId) return undefined;
  return {
    productId,
    productType: node.data.productType,
    tags: node.data.tags,
    updatedAt: node.data.updatedAt,
  };
}
