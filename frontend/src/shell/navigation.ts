/**
 * The app's navigation, in its order: Recent checkouts and Shipping zones (where checkout
 * asks Ratesmith) before Settings, and Backup (export and import) after it.
 */
export const NAV_ITEMS = [
  { label: 'Dashboard', to: '/dashboard' },
  { label: 'Global Rules', to: '/global-rules' },
  { label: 'Product Rules', to: '/product-rules' },
  { label: 'Recent checkouts', to: '/recent-checkouts' },
  { label: 'Shipping zones', to: '/shipping-zones' },
  { label: 'Settings', to: '/settings' },
  { label: 'Backup', to: '/backup' },
  { label: 'FAQ', to: '/faq' },
] as const;

/** Which item a path belongs to (the editors belong to their lists). */
export function activeNavItem(pathname: string): string | undefined {
  if (pathname === '/' || pathname.startsWith('/dashboard')) return '/dashboard';
  if (pathname.startsWith('/global-rules') || pathname.startsWith('/edit-global-rule'))
    return '/global-rules';
  if (pathname.startsWith('/product-rules') || pathname.startsWith('/edit-product-rule'))
    return '/product-rules';
  return NAV_ITEMS.find((item) => pathname.startsWith(item.to))?.to;
}
