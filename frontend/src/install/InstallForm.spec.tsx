import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import InstallPage from '../pages/Install';
import { fakeGateway, renderScreen } from '../test-utils';

function setup(path = '/install', replies: Record<string, { status: number; body: unknown }> = {}) {
  const gateway = fakeGateway(replies);
  const redirects: string[] = [];
  const user = userEvent.setup();
  renderScreen(<InstallPage api={gateway.api} redirect={(url) => redirects.push(url)} />, path);
  const shop = () => screen.getByLabelText(/Store subdomain/);
  const email = () => screen.getByLabelText(/Purchase email/);
  const install = () => user.click(screen.getByRole('button', { name: 'Install' }));
  const formError = () => screen.queryByTestId('install-error')?.textContent;
  // The page also asks /demo/session-token whether it runs in demo mode; these are the install calls.
  const apiCalls = () => gateway.calls.filter((c) => c.path.startsWith('/api/'));
  return { user, gateway, redirects, shop, email, install, formError, apiCalls };
}

describe('the install form', () => {
  it('asks for an email first, and sends nothing', async () => {
    const t = setup();
    await t.install();
    expect(t.formError()).toBe('Please provide a valid email.');
    expect(screen.getByText('Email is required')).toBeTruthy();
    expect(screen.getByText('Shopify subdomain is required')).toBeTruthy();
    expect(t.apiCalls()).toEqual([]);
  });

  it('refuses a malformed email', async () => {
    const t = setup();
    await t.user.type(t.email(), 'me at example.com');
    await t.install();
    expect(t.formError()).toBe('Please enter a valid email address.');
    expect(screen.getByText('Please enter a valid email')).toBeTruthy();
  });

  it('asks for the subdomain once the email is fine', async () => {
    const t = setup();
    await t.user.type(t.email(), 'me@example.com');
    await t.install();
    expect(t.formError()).toBe('Please provide your Shopify subdomain.');
  });

  it('refuses a subdomain that is not a myshopify.com address', async () => {
    const t = setup();
    await t.user.type(t.email(), 'me@example.com');
    await t.user.type(t.shop(), 'my store.com');
    await t.install();
    expect(t.formError()).toBe(
      'Please enter a valid Shopify subdomain (e.g., your-store.myshopify.com)',
    );
    expect(screen.getByText('Should end with .myshopify.com')).toBeTruthy();
    expect(t.apiCalls()).toEqual([]);
  });

  it('shows a hint under a field once it is left empty, before any submit', async () => {
    const t = setup();
    await t.user.click(t.shop());
    await t.user.tab();
    expect(screen.getByText('Shopify subdomain is required')).toBeTruthy();
    expect(screen.queryByText('Email is required')).toBeNull();
  });

  it('installs with trimmed input, the shop in lowercase as the gateway takes it, and follows the returned URL', async () => {
    const t = setup('/install', {
      '/api/install': { status: 200, body: { url: 'https://shop.example/oauth' } },
    });
    await t.user.type(t.shop(), '  My-Store.MyShopify.com ');
    await t.user.type(t.email(), ' me@example.com  ');
    await t.install();
    await waitFor(() => expect(t.redirects).toEqual(['https://shop.example/oauth']));
    expect(t.apiCalls().map(({ path, body }) => ({ path, body }))).toEqual([
      { path: '/api/install', body: { shop: 'my-store.myshopify.com', email: 'me@example.com' } },
    ]);
    expect(screen.getByTestId('loading-overlay').textContent).toContain('Installing');
  });

  it("shows the server's message in the form when the install is refused", async () => {
    const t = setup('/install', {
      '/api/install': {
        status: 400,
        body: { status: false, message: 'This store is not allowed.' },
      },
    });
    await t.user.type(t.shop(), 'my-store.myshopify.com');
    await t.user.type(t.email(), 'me@example.com');
    await t.install();
    await waitFor(() => expect(t.formError()).toBe('This store is not allowed.'));
    expect(screen.queryByTestId('loading-overlay')).toBeNull();
    expect(t.redirects).toEqual([]);
  });

  it('starts the reinstall when hmac, shop, host and timestamp are in the query, passing every signed parameter', async () => {
    const t = setup('/install?shop=a.myshopify.com&hmac=h&host=x&timestamp=1&locale=en', {
      '/api/reinstall': { status: 200, body: { status: false } },
    });
    await waitFor(() => expect(t.formError()).toBe('Reinstallation failed'));
    expect(t.apiCalls().map(({ path, body }) => ({ path, body }))).toEqual([
      {
        path: '/api/reinstall',
        body: { shop: 'a.myshopify.com', hmac: 'h', host: 'x', timestamp: '1', locale: 'en' },
      },
    ]);
  });

  it('verifies a shop given alone and follows its auth URL', async () => {
    const t = setup('/install?shop=a.myshopify.com', {
      '/api/verify': { status: 200, body: { auth_url: 'https://a.myshopify.com/admin/oauth' } },
    });
    await waitFor(() => expect(t.redirects).toEqual(['https://a.myshopify.com/admin/oauth']));
    expect(t.apiCalls()[0]!.path).toBe('/api/verify?shop=a.myshopify.com');
  });
});
