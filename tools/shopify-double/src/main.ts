/**
 * The double as a process (`npm start` runs it in demo mode):
 * SHOPIFY_API_KEY, SHOPIFY_API_SECRET, SHOPIFY_DOUBLE_PORT (0 = free port);
 * SHOPIFY_DOUBLE_SHOPS_WITHOUT_CARRIER_PLAN (comma-separated shops whose plan
 * lacks carrier-calculated shipping, to see the admin's warning);
 * SHOPIFY_DOUBLE_SHOP_CURRENCIES (comma-separated shop=CODE, e.g.
 * ratesmith-demo.myshopify.com=EUR: the store currency, USD otherwise);
 * SHOPIFY_DOUBLE_SHOP_WEIGHT_UNITS (comma-separated shop=UNIT, UNIT one of
 * GRAMS, KILOGRAMS, OUNCES, POUNDS: the store's weight unit, KILOGRAMS otherwise).
 * The same settings can be changed while it runs, per shop, with the HTTP
 * control `PUT /__double/shops/<shop>/store` (src/controls.ts).
 * Prints `listening <url>` once ready.
 */
import { WEIGHT_UNITS, type WeightUnit } from './controls';
import { shopCurrency, startShopifyDouble } from './double';

const isWeightUnit = (unit: string): unit is WeightUnit =>
  (WEIGHT_UNITS as readonly string[]).includes(unit);

async function main(): Promise<void> {
  const apiKey = process.env.SHOPIFY_API_KEY;
  const apiSecret = process.env.SHOPIFY_API_SECRET;
  if (!apiKey || !apiSecret) throw new Error('SHOPIFY_API_KEY and SHOPIFY_API_SECRET are required');
  const double = await startShopifyDouble({
    apiKey,
    apiSecret,
    port: Number(process.env.SHOPIFY_DOUBLE_PORT ?? 0),
  });
  for (const shop of (process.env.SHOPIFY_DOUBLE_SHOPS_WITHOUT_CARRIER_PLAN ?? '').split(','))
    if (shop.trim()) double.carrierServices.setCarrierCalculatedShipping(shop.trim(), false);
  for (const entry of (process.env.SHOPIFY_DOUBLE_SHOP_CURRENCIES ?? '').split(',')) {
    const [shop, code] = entry.split('=').map((part) => part.trim());
    if (shop && code) double.setCurrency(shop, shopCurrency(code.toUpperCase()));
  }
  for (const entry of (process.env.SHOPIFY_DOUBLE_SHOP_WEIGHT_UNITS ?? '').split(',')) {
    const [shop, unit] = entry.split('=').map((part) => part.trim().toUpperCase());
    if (!shop || !unit) continue;
    if (!isWeightUnit(unit)) throw new Error(`${unit} is not a Shopify weight unit`);
    double.setWeightUnit(shop.toLowerCase(), unit);
  }
  process.stdout.write(
    `${JSON.stringify({ level: 'info', msg: `listening ${double.url}`, url: double.url })}\n`,
  );
  const stop = () => void double.stop().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((err: Error) => {
  process.stderr.write(`shopify double failed: ${err.message}\n`);
  process.exit(1);
});
