import { BlockStack, Card, Layout, List, Page, Text } from '@shopify/polaris';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { createApiClient, messageOf, type ApiClient } from '../api';
import { LoadingOverlay } from '../components/LoadingOverlay';
import { WelcomeIntro } from '../components/TrainingVideo';
import { InstallForm } from '../install/InstallForm';
import { installStart } from '../install/start';
import type { InstallInput } from '../install/validation';
import { DemoShopBanner } from '../install/DemoShopBanner';
import { isAppBridgeEnabled, isInFrame } from '../shell/environment';

export interface InstallPageProps {
  /** Calls without a session (the install page runs outside the admin). */
  api?: ApiClient;
  /** Leaves for Shopify's install or the app; a prop so tests can watch it. */
  redirect?: (url: string) => void;
}

type Busy = 'installing' | 'reinstalling' | 'verifying' | undefined;

const busyLabel: Record<NonNullable<Busy>, string> = {
  installing: 'Installing…',
  reinstalling: 'Reinstalling…',
  verifying: 'Checking your store…',
};

const NO_URL = 'Failed to get installation URL. Please try again.';

export default function InstallPage({
  api: givenApi,
  redirect = (url) => window.location.assign(url),
}: InstallPageProps) {
  const location = useLocation();
  const api = useMemo(() => givenApi ?? createApiClient({ tokens: { kind: 'none' } }), [givenApi]);
  const start = useMemo(() => installStart(location.search), [location.search]);
  const [busy, setBusy] = useState<Busy>(
    start.kind === 'reinstall' ? 'reinstalling' : start.kind === 'verify' ? 'verifying' : undefined,
  );
  const [error, setError] = useState<string | undefined>(undefined);
  const framed = isInFrame();
  const started = useRef(false);

  useEffect(() => {
    if (framed || started.current || start.kind === 'form') return;
    started.current = true; // once, also under StrictMode's double effects
    const run = async () => {
      try {
        if (start.kind === 'reinstall') {
          const reply = await api.post<{ data?: { url?: string } }>('/api/reinstall', start.signed);
          if (!reply.data?.url) throw new Error('no url');
          redirect(reply.data.url);
        } else {
          const reply = await api.get<{ auth_url?: string }>('/api/verify', {
            query: { shop: start.shop },
          });
          if (!reply.auth_url) throw new Error('no url');
          redirect(reply.auth_url);
        }
      } catch (err) {
        setBusy(undefined);
        setError(
          start.kind === 'reinstall'
            ? messageOf(err, 'Reinstallation failed')
            : messageOf(
                err,
                err instanceof Error && err.message === 'no url'
                  ? NO_URL
                  : 'An error occurred during installation.',
              ),
        );
      }
    };
    void run();
  }, [api, framed, redirect, start]);

  if (framed) return <Navigate to={`/${location.search}`} replace />;

  const install = async ({ shop, email }: InstallInput) => {
    setBusy('installing');
    setError(undefined);
    try {
      const reply = await api.post<{ url?: string }>('/api/install', { shop, email });
      if (!reply.url) {
        setBusy(undefined);
        setError(NO_URL);
        return;
      }
      redirect(reply.url); // the overlay stays until the browser leaves
    } catch (err) {
      setBusy(undefined);
      setError(messageOf(err, 'An error occurred during installation.'));
    }
  };

  return (
    <Page title="Install Ratesmith">
      {busy ? <LoadingOverlay label={busyLabel[busy]} /> : null}
      <Layout>
        {isAppBridgeEnabled() ? null : (
          <Layout.Section>
            <DemoShopBanner api={api} />
          </Layout.Section>
        )}
        <Layout.Section>
          <Card>
            <BlockStack gap="400">
              <WelcomeIntro>
                Ratesmith changes your shipping fee at checkout with rules you define: by
                destination, cart value and the products in the cart.
              </WelcomeIntro>
              <Text as="h3" variant="headingMd">
                How to install
              </Text>
              <List type="number">
                <List.Item>Enter your store subdomain, e.g. your-store.myshopify.com.</List.Item>
                <List.Item>Enter the email address you used to buy Ratesmith.</List.Item>
                <List.Item>Select Install and approve the app in your Shopify admin.</List.Item>
              </List>
              <Text as="p" tone="subdued">
                Need help? Reply to your purchase confirmation email and our support team will get
                back to you within one business day.
              </Text>
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <Card>
            <BlockStack gap="400">
              <Text as="h2" variant="headingMd">
                Install the app
              </Text>
              <InstallForm
                initialShop={start.kind === 'form' ? '' : start.shop}
                error={error}
                busy={busy !== undefined}
                onInstall={(input) => void install(input)}
              />
            </BlockStack>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
