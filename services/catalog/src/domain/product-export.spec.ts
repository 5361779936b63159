import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authV1 } from '@ratesmith/contracts';
import { createLogger } from '@ratesmith/kit';
import { ProductExports } from './product-export';

/**
 * The export's own guards, with Shopify's side played at the AdminQueries seam
 * (the whole path runs against the Shopify double in
 * services/gateway/test/product-index.int.spec.ts) and its file served over
 * real HTTP.
 */
let server: Server;
let origin = '';
let body = '';
beforeAll(async () => {
  server = createServer((_req, res) => res.end(body));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const line = (id: number, tags: string[] = []) =>
  JSON.stringify({
    id: `gid://shopify/Product/${id}`,
    productType: '',
    tags,
    updatedAt: '2026-11-01T00:00:00Z',
  });

function setUp(options: { url: string | null; origins?: string[]; maxFileBytes?: number }) {
  const puts: { products: unknown[]; exportBatch: boolean; exportFinished: boolean }[] = [];
  const warnings: string[] = [];
  const logger = createLogger('test', 'silent');
  logger.warn = ((obj: { err: string }) => void warnings.push(obj.err)) as never;
  const exports = new ProductExports({
    admin: {
      run: async <T>(_shop: string, query: authV1.AdminQuery) =>
        (query === authV1.AdminQuery.PRODUCT_EXPORT_START
          ? {
              bulkOperationRunQuery: {
                bulkOperation: { id: 'gid://shopify/BulkOperation/1', status: 'CREATED' },
                userErrors: [],
              },
            }
          : {
              bulkOperation: {
                id: 'gid://shopify/BulkOperation/1',
                status: 'COMPLETED',
                url: options.url,
              },
            }) as T,
    },
    rules: {
      call: async (_method: string, request: (typeof puts)[number]) => {
        puts.push(request);
        return {};
      },
    } as never,
    logger,
    fileOrigins: options.origins ?? [origin],
    limits: { pollMs: 1, totalMs: 10_000, maxFileBytes: options.maxFileBytes ?? 1 << 20 },
  });
  const run = async () => {
    expect(exports.start('s.myshopify.com', 'r')).toBe(true);
    // A second start while it runs is not a second export.
    expect(exports.start('s.myshopify.com', 'r')).toBe(false);
    await exports.settled('s.myshopify.com');
  };
  return { run, puts, warnings };
}

describe('the product export', () => {
  it('sends the file in batches of 500, then says it finished', async () => {
    body = Array.from({ length: 1201 }, (_, i) => line(i + 1, i === 0 ? ['a'] : [])).join('\n');
    const { run, puts } = setUp({ url: `${origin}/file.jsonl` });
    await run();
    expect(puts.map((p) => [p.products.length, p.exportBatch, p.exportFinished])).toEqual([
      [500, true, false],
      [500, true, false],
      [201, true, false],
      [0, false, true],
    ]);
    expect(puts[0]!.products[0]).toEqual({
      productId: '1',
      productType: '',
      tags: ['a'],
      updatedAt: '2026-11-01T00:00:00Z',
    });
  });

  it('finishes at once when Shopify has no file (no products)', async () => {
    const { run, puts } = setUp({ url: null });
    await run();
    expect(puts).toEqual([
      {
        shop: 's.myshopify.com',
        products: [],
        removedProductIds: [],
        exportBatch: false,
        exportFinished: true,
      },
    ]);
  });

  it('reads no file from an origin it does not allow, and sends nothing', async () => {
    body = line(1);
    const { run, puts, warnings } = setUp({
      url: `${origin}/file.jsonl`,
      origins: ['https://storage.googleapis.com'],
    });
    await run();
    expect(puts).toEqual([]);
    expect(warnings[0]).toMatch(/not at an allowed origin/);
  });

  it('stops at its size limit and at a line that is no product, never saying it finished', async () => {
    body = Array.from({ length: 100 }, (_, i) => line(i + 1)).join('\n');
    const big = setUp({ url: `${origin}/f.jsonl`, maxFileBytes: 1000 });
    await big.run();
    expect(big.warnings[0]).toMatch(/too large/);
    expect(big.puts.some((p) => p.exportFinished)).toBe(false);

    body = `${line(1)}\n{"id":"gid://shopify/Order/1"}\n`;
    const odd = setUp({ url: `${origin}/f.jsonl` });
    await odd.run();
    expect(odd.warnings[0]).toMatch(/no product/);
    expect(odd.puts).toEqual([]);
  });
});
