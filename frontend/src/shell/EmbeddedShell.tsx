import { NavMenu } from '@shopify/app-bridge-react';
import { Box, InlineStack, Spinner, Text } from '@shopify/polaris';
import { useMemo } from 'react';
import { Link, Navigate, NavLink, Outlet, useLocation } from 'react-router-dom';
import { ApiProvider } from '../api';
import {
  isAppBridgeEnabled,
  isInFrame,
  resolveShopContext,
  shopName,
  type ShopContext,
} from './environment';
import { MAIN_ID } from './focus';
import { activeNavItem, NAV_ITEMS } from './navigation';
import { ShopContextValue } from './ShopContext';
import { shopApiClient } from './shop-client';
import { SkipLink, useHeadingFocusOnNavigation } from './SkipLink';

/**
 * Every screen but /install runs in here: it resolves the shop and host
 * (query string, else session storage), gives the screens an api client for
 * that shop, and shows the navigation (App Bridge's admin menu inside the
 * admin, an in-page bar in demo mode).
 */
export function EmbeddedShell() {
  const location = useLocation();
  const context = useMemo(
    () => resolveShopContext(location.search, window.sessionStorage),
    [location.search],
  );
  if (!context) {
    if (!isInFrame()) return <Navigate to="/install" replace />;
    return <LoadingScreen />;
  }
  return <ShellFor context={context} />;
}

function ShellFor({ context }: { context: ShopContext }) {
  const appBridge = isAppBridgeEnabled();
  const client = shopApiClient(context.shop);
  useHeadingFocusOnNavigation(useLocation().pathname);
  return (
    <ShopContextValue.Provider value={context}>
      <ApiProvider client={client}>
        <SkipLink />
        {appBridge ? <AdminMenu /> : <TopBar shop={context.shop} />}
        <main id={MAIN_ID} tabIndex={-1}>
          <Outlet />
        </main>
      </ApiProvider>
    </ShopContextValue.Provider>
  );
}

/** Inside the admin: the app's entries in the admin's sidebar. */
function AdminMenu() {
  return (
    <NavMenu>
      <Link to="/" rel="home">
        Dashboard
      </Link>
      {NAV_ITEMS.slice(1).map((item) => (
        <Link key={item.to} to={item.to}>
          {item.label}
        </Link>
      ))}
    </NavMenu>
  );
}

/** Outside the admin (demo mode): the same entries as a bar on top of the page. */
function TopBar({ shop }: { shop: string }) {
  const { pathname } = useLocation();
  const active = activeNavItem(pathname);
  return (
    <header className="rs-topbar">
      <InlineStack align="space-between" blockAlign="center" gap="400">
        <InlineStack gap="400" blockAlign="center">
          <Text as="span" variant="headingMd">
            Ratesmith
          </Text>
          <nav aria-label="Main">
            <ul className="rs-nav">
              {NAV_ITEMS.map((item) => (
                <li key={item.to}>
                  <NavLink
                    to={item.to}
                    className={
                      item.to === active ? 'rs-nav__link rs-nav__link--active' : 'rs-nav__link'
                    }
                    aria-current={item.to === active ? 'page' : undefined}
                  >
                    {item.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
        </InlineStack>
        <Text as="span" tone="subdued">
          Shop: <span data-testid="shop-name">{shopName(shop)}</span>
        </Text>
      </InlineStack>
    </header>
  );
}

export function LoadingScreen() {
  return (
    <Box padding="800">
      <InlineStack align="center" gap="200" blockAlign="center">
        <Spinner size="small" accessibilityLabel="Loading" />
        <div role="status">
          <Text as="p">Loading</Text>
        </div>
      </InlineStack>
    </Box>
  );
}
