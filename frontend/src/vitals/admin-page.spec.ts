import { ADMIN_PAGES } from '@ratesmith/contracts/edge';
import type { RouteObject } from 'react-router-dom';
import { routes } from '../routes';
import { adminPageOf } from './admin-page';

/** The route pattern of every screen of the table (its leaves). */
function leafPatterns(tree: RouteObject[], prefix = ''): string[] {
  return tree.flatMap((route) => {
    const path = route.path?.startsWith('/')
      ? route.path
      : [prefix, route.path].filter(Boolean).join('/');
    return route.children ? leafPatterns(route.children, path) : [`/${path}`.replace(/^\/\//, '/')];
  });
}

describe('the page of a report', () => {
  it('is the route pattern of the screen, without its ids or query', () => {
    const pageOf = (path: string) => adminPageOf(routes, path);
    expect(pageOf('/')).toBe('/');
    expect(pageOf('/dashboard')).toBe('/dashboard');
    expect(pageOf('/global-rules/')).toBe('/global-rules');
    expect(pageOf('/edit-global-rule/64f1c0ffee1234567890abcd')).toBe('/edit-global-rule/:id');
    expect(pageOf('/edit-product-rule/64f1c0ffee1234567890abcd')).toBe('/edit-product-rule/:id');
    expect(pageOf('/no/such/screen')).toBe('/*');
  });

  it('is none for the install page, which runs without a session', () => {
    expect(adminPageOf(routes, '/install')).toBeUndefined();
  });

  it("lists every screen of the route table in the gateway's closed list, and nothing else", () => {
    const screens = leafPatterns(routes).filter((p) => p !== '/install');
    expect([...new Set(screens)].sort()).toEqual([...ADMIN_PAGES].sort());
    for (const pattern of screens)
      expect(adminPageOf(routes, pattern.replace(':id', '64f1c0ffee').replace('*', 'x'))).toBe(
        pattern,
      );
  });
});
