/**
 * The demo store's catalog: 44 products (three pages of 15 in the picker, the
 * last one short), most with an image and one to four variants, some free.
 * Images are small SVG data: URIs so the demo and the tests never need the
 * internet.
 */

export interface DoubleVariant {
  /** Numeric id; the GraphQL id is gid://shopify/ProductVariant/<id>. */
  id: number;
  title: string;
  /** Decimal string, as Shopify's Money scalar ("19.99"). */
  price: string;
  /** Shipping weight of one unit in grams (Shopify's `inventoryItem.measurement.weight`); 0 when not given. */
  grams?: number;
}

export interface DoubleProduct {
  /** Numeric id; the GraphQL id is gid://shopify/Product/<id>. */
  id: number;
  title: string;
  handle: string;
  vendor: string;
  image: { url: string; altText: string } | null;
  variants: DoubleVariant[];
  /** Shopify's productType ('' when unset), tags and updatedAt (ISO 8601). */
  productType?: string;
  tags?: string[];
  updatedAt?: string;
}

const PALETTE = ['#5c6ac4', '#47c1bf', '#f49342', '#de3618', '#50b83c', '#9c6ade', '#eec200'];

/** A square tile with the product's initials: a few hundred bytes, no network. */
export function tileImage(title: string, index: number): string {
  const initials = title
    .split(/\s+/)
    .slice(0, 2)
    .map((word) => word[0]?.toUpperCase() ?? '')
    .join('');
  const color = PALETTE[index % PALETTE.length];
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200" viewBox="0 0 200 200">` +
    `<rect width="200" height="200" rx="16" fill="${color}"/>` +
    `<text x="100" y="122" font-family="sans-serif" font-size="64" fill="#fff" text-anchor="middle">${initials}</text>` +
    `</svg>`;
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

export function handleOf(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

type VariantSpec = [title: string, price: string];

/** [title, vendor, variants, has an image]. Prices "0.00" are free items. */
const PRODUCTS: [string, string, VariantSpec[], boolean?][] = [
  [
    'Classic Cotton T-Shirt',
    'Ratesmith Apparel',
    [
      ['S', '19.99'],
      ['M', '19.99'],
      ['L', '21.99'],
    ],
  ],
  [
    'Organic Hoodie',
    'Ratesmith Apparel',
    [
      ['M', '49.00'],
      ['L', '49.00'],
    ],
  ],
  ['Wool Beanie', 'Northern Knits', [['Default Title', '15.50']]],
  [
    'Rain Jacket',
    'Northern Knits',
    [
      ['S', '89.00'],
      ['M', '89.00'],
      ['L', '89.00'],
      ['XL', '95.00'],
    ],
  ],
  [
    'Canvas Tote Bag',
    'Carry Co',
    [
      ['Natural', '12.00'],
      ['Black', '12.00'],
    ],
  ],
  [
    'Leather Wallet',
    'Carry Co',
    [
      ['Brown', '39.95'],
      ['Black', '39.95'],
    ],
  ],
  ['Free Sticker Pack', 'Ratesmith Apparel', [['Default Title', '0.00']]],
  [
    'Ceramic Coffee Mug',
    'Kiln House',
    [
      ['White', '14.00'],
      ['Blue', '14.00'],
    ],
  ],
  ['Enamel Camping Mug', 'Kiln House', [['Default Title', '11.25']]],
  ['Stoneware Teapot', 'Kiln House', [['Default Title', '42.00']]],
  ['Gift Wrap', 'Carry Co', [['Default Title', '0.00']]],
  [
    'Bamboo Cutting Board',
    'Timber & Grain',
    [
      ['Small', '18.00'],
      ['Large', '26.00'],
    ],
  ],
  ['Oak Serving Tray', 'Timber & Grain', [['Default Title', '34.00']]],
  ['Walnut Desk Organizer', 'Timber & Grain', [['Default Title', '58.00']]],
  ['Free Catalog', 'Ratesmith Apparel', [['Default Title', '0.00']], false],
  [
    'Running Socks',
    'Stride',
    [
      ['S', '9.00'],
      ['M', '9.00'],
      ['L', '9.00'],
    ],
  ],
  [
    'Trail Running Shoes',
    'Stride',
    [
      ['8', '120.00'],
      ['9', '120.00'],
      ['10', '120.00'],
      ['11', '125.00'],
    ],
  ],
  [
    'Yoga Mat',
    'Stride',
    [
      ['Purple', '35.00'],
      ['Green', '35.00'],
    ],
  ],
  [
    'Water Bottle',
    'Stride',
    [
      ['500 ml', '16.00'],
      ['750 ml', '19.00'],
    ],
  ],
  ['Sample Energy Bar', 'Stride', [['Default Title', '0.00']]],
  [
    'Scented Candle',
    'Glow Works',
    [
      ['Lavender', '22.00'],
      ['Cedar', '22.00'],
      ['Citrus', '22.00'],
    ],
  ],
  ['Beeswax Candle Set', 'Glow Works', [['Default Title', '28.50']]],
  [
    'Linen Throw Pillow',
    'Glow Works',
    [
      ['Sand', '32.00'],
      ['Slate', '32.00'],
    ],
  ],
  ['Cotton Bath Towel', 'Glow Works', [['Default Title', '24.00']]],
  ['Hand Soap Refill', 'Glow Works', [['Default Title', '8.75']]],
  [
    'Notebook A5',
    'Paper Trail',
    [
      ['Lined', '7.50'],
      ['Dotted', '7.50'],
      ['Blank', '7.50'],
    ],
  ],
  [
    'Fountain Pen',
    'Paper Trail',
    [
      ['Fine', '64.00'],
      ['Medium', '64.00'],
    ],
  ],
  [
    'Ink Bottle',
    'Paper Trail',
    [
      ['Blue', '12.00'],
      ['Black', '12.00'],
    ],
  ],
  ['Greeting Card', 'Paper Trail', [['Default Title', '4.00']]],
  [
    'Bookmark',
    'Paper Trail',
    [
      ['Default Title', '0.00'],
      ['Brass', '6.00'],
    ],
  ],
  [
    'Sunglasses',
    'Shade Co',
    [
      ['Tortoise', '75.00'],
      ['Black', '75.00'],
    ],
  ],
  ['Sun Hat', 'Shade Co', [['Default Title', '29.00']]],
  [
    'Beach Towel',
    'Shade Co',
    [
      ['Stripes', '27.00'],
      ['Palms', '27.00'],
    ],
  ],
  ['Travel Pillow', 'Carry Co', [['Default Title', '19.00']], false],
  [
    'Weekender Duffel',
    'Carry Co',
    [
      ['Olive', '110.00'],
      ['Navy', '110.00'],
    ],
  ],
  [
    'Phone Case',
    'Gadget Lab',
    [
      ['iPhone', '25.00'],
      ['Pixel', '25.00'],
    ],
  ],
  [
    'USB-C Cable',
    'Gadget Lab',
    [
      ['1 m', '10.00'],
      ['2 m', '13.00'],
    ],
  ],
  ['Wireless Charger', 'Gadget Lab', [['Default Title', '39.00']]],
  ['Bluetooth Speaker', 'Gadget Lab', [['Default Title', '79.00']]],
  ['Screen Cleaning Kit', 'Gadget Lab', [['Default Title', '0.00']]],
  [
    'Dog Collar',
    'Good Boy Supply',
    [
      ['S', '17.00'],
      ['M', '18.00'],
      ['L', '19.00'],
    ],
  ],
  ['Cat Toy Mouse', 'Good Boy Supply', [['Default Title', '5.00']]],
  ['Pet Bowl', 'Good Boy Supply', [['Default Title', '21.00']]],
  ['Dog Treats Sample', 'Good Boy Supply', [['Default Title', '0.00']]],
];

/**
 * Shipping weight in grams of each product's first variant: what such a thing
 * weighs packed, so weight rules can be tried on the demo store. Each later
 * variant (a larger size) weighs a tenth more than the one before.
 */
const GRAMS: Record<string, number> = {
  'Classic Cotton T-Shirt': 180,
  'Organic Hoodie': 620,
  'Wool Beanie': 110,
  'Rain Jacket': 540,
  'Canvas Tote Bag': 280,
  'Leather Wallet': 120,
  'Free Sticker Pack': 15,
  'Ceramic Coffee Mug': 420,
  'Enamel Camping Mug': 230,
  'Stoneware Teapot': 1150,
  'Gift Wrap': 90,
  'Bamboo Cutting Board': 900,
  'Oak Serving Tray': 1400,
  'Walnut Desk Organizer': 1250,
  'Free Catalog': 160,
  'Running Socks': 70,
  'Trail Running Shoes': 980,
  'Yoga Mat': 1800,
  'Water Bottle': 360,
  'Sample Energy Bar': 45,
  'Scented Candle': 480,
  'Beeswax Candle Set': 650,
  'Linen Throw Pillow': 700,
  'Cotton Bath Towel': 600,
  'Hand Soap Refill': 1050,
  'Notebook A5': 260,
  'Fountain Pen': 40,
  'Ink Bottle': 130,
  'Greeting Card': 25,
  Bookmark: 10,
  Sunglasses: 60,
  'Sun Hat': 150,
  'Beach Towel': 850,
  'Travel Pillow': 330,
  'Weekender Duffel': 1600,
  'Phone Case': 50,
  'USB-C Cable': 60,
  'Wireless Charger': 180,
  'Bluetooth Speaker': 750,
  'Screen Cleaning Kit': 120,
  'Dog Collar': 90,
  'Cat Toy Mouse': 20,
  'Pet Bowl': 520,
  'Dog Treats Sample': 80,
};

/**
 * Product types by the vendor's line, and tags a merchant would give: the
 * heavy ones `oversize`, glass and electronics `fragile`, free ones `sample`
 * (item conditions, docs/rates.md; the editor's pickers list them).
 */
const TYPES: Record<string, string> = {
  'Ratesmith Apparel': 'Apparel',
  'Northern Knits': 'Apparel',
  'Carry Co': 'Bags',
  'Kiln House': 'Kitchen',
  'Timber & Grain': 'Kitchen',
  Stride: 'Sports',
  'Glow Works': 'Home',
  'Paper Trail': 'Stationery',
  'Shade Co': 'Summer',
  'Gadget Lab': 'Electronics',
  'Good Boy Supply': 'Pets',
};
const FRAGILE = /Mug|Candle|Ink|Speaker|Sunglasses|Charger/;

function tagsOf(title: string, vendor: string, variants: VariantSpec[]): string[] {
  const tags: string[] = [];
  if ((GRAMS[title] ?? 250) >= 700) tags.push('oversize');
  if (FRAGILE.test(title) || vendor === 'Gadget Lab') tags.push('fragile');
  if (variants.every(([, price]) => price === '0.00')) tags.push('sample');
  return tags;
}

/** Ids look like real Shopify ids (13 digits) and never collide between products and variants. */
export const DEMO_PRODUCT_ID_BASE = 8_100_000_000_000;
const VARIANT_ID_BASE = 44_100_000_000_000;

export const DEMO_CATALOG: readonly DoubleProduct[] = PRODUCTS.map(
  ([title, vendor, variants, hasImage = true], index) => ({
    id: DEMO_PRODUCT_ID_BASE + index + 1,
    title,
    handle: handleOf(title),
    vendor,
    productType: TYPES[vendor] ?? '',
    tags: tagsOf(title, vendor, variants),
    image: hasImage ? { url: tileImage(title, index), altText: title } : null,
    variants: variants.map(([variantTitle, price], v) => ({
      id: VARIANT_ID_BASE + index * 10 + v + 1,
      title: variantTitle,
      price,
      grams: Math.round((GRAMS[title] ?? 250) * 1.1 ** v),
    })),
  }),
);
