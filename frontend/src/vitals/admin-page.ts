import { ADMIN_PAGES, type AdminPage } from '@ratesmith/contracts/edge';
import { matchRoutes, type RouteObject } from 'react-router-dom';

/**
 * The admin page a path shows, as its route pattern in `routes`
 * (/edit-global-rule/:id for /edit-global-rule/64f1…): a report names the
 * page without its ids. Undefined for a path outside the admin's pages
 * (/install, which runs without a session).
 */
export function adminPageOf(routes: RouteObject[], pathname: string): AdminPage | undefined {
  const matches = matchRoutes(routes, pathname);
  if (!matches) return undefined;
  const pattern = `/${matches.map((m) => m.route.path ?? '').join('/')}`.replace(/\/{2,}/g, '/');
  const page = pattern.length > 1 ? pattern.replace(/\/$/, '') : pattern;
  return (ADMIN_PAGES as readonly string[]).includes(page) ? (page as AdminPage) : undefined;
}
