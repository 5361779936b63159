import type { FilterScope } from '@ratesmith/contracts/filters';
import type { ComponentType } from 'react';
import type { LoaderFunction, RouteObject } from 'react-router-dom';
import { RouteError } from './components/RouteError';
import { prefetchFilterList } from './editor/filter-list-paths';
import { EmbeddedShell, LoadingScreen } from './shell/EmbeddedShell';
import { resolveShopContext } from './shell/environment';
import { shopApiClient } from './shell/shop-client';
import { SkipLinkFrame } from './shell/SkipLink';

/** Each screen is its own chunk: the first page loads only what it shows. */
function page(load: () => Promise<{ default: ComponentType }>): RouteObject['lazy'] {
  return async () => ({ Component: (await load()).default });
}

/**
 * An editor's loader: the router runs it beside the screen's `lazy`, so the filter list's
 * read starts while the editor's code loads (docs/performance.md, "The editor with 100
 * filters"). Without a shop (the shell sends the visitor to /install) it does nothing.
 * Run again only for another rule's editor: a prefetch nobody takes is a wasted read.
 */
function prefetching(scope: FilterScope): Pick<RouteObject, 'loader' | 'shouldRevalidate'> {
  const loader: LoaderFunction = ({ params, request }) => {
    const context = resolveShopContext(new URL(request.url).search, window.sessionStorage);
    if (context && params.id) prefetchFilterList(shopApiClient(context.shop), scope, params.id);
    return null;
  };
  return {
    loader,
    shouldRevalidate: ({ currentParams, nextParams }) => currentParams.id !== nextParams.id,
  };
}

/** The admin's routes: the original app's paths, and the pages added since. */
export const routes: RouteObject[] = [
  {
    // Shown while the first screen's chunk loads.
    HydrateFallback: LoadingScreen,
    errorElement: <RouteError />,
    children: [
      {
        path: '/install',
        element: <SkipLinkFrame />,
        errorElement: <RouteError />,
        children: [{ index: true, lazy: page(() => import('./pages/Install')) }],
      },
      {
        element: <EmbeddedShell />,
        errorElement: <RouteError />,
        children: [
          {
            errorElement: <RouteError />,
            children: [
              { index: true, lazy: page(() => import('./pages/Dashboard')) },
              { path: 'dashboard', lazy: page(() => import('./pages/Dashboard')) },
              { path: 'global-rules', lazy: page(() => import('./pages/GlobalRules')) },
              {
                path: 'edit-global-rule/:id',
                ...prefetching('ruleset'),
                lazy: page(() => import('./pages/EditGlobalRule')),
              },
              { path: 'product-rules', lazy: page(() => import('./pages/ProductRules')) },
              {
                path: 'edit-product-rule/:id',
                ...prefetching('product'),
                lazy: page(() => import('./pages/EditProductRule')),
              },
              { path: 'recent-checkouts', lazy: page(() => import('./pages/RecentCheckouts')) },
              { path: 'shipping-zones', lazy: page(() => import('./pages/ShippingZones')) },
              { path: 'settings', lazy: page(() => import('./pages/Settings')) },
              { path: 'backup', lazy: page(() => import('./pages/Backup')) },
              { path: 'faq', lazy: page(() => import('./pages/Faq')) },
              { path: '*', lazy: page(() => import('./pages/NotFound')) },
            ],
          },
        ],
      },
    ],
  },
];
