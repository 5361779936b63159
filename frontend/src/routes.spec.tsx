import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import { AppProviders } from './AppProviders';
import { RouteError } from './components/RouteError';
import { routes } from './routes';

function renderAt(path: string, tree: RouteObject[] = routes) {
  const router = createMemoryRouter(tree, { initialEntries: [path] });
  render(
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return router;
}

describe('the routes', () => {
  beforeEach(() => sessionStorage.clear());

  it('sends a visitor without shop and host, outside a frame, to /install', async () => {
    const router = renderAt('/global-rules');
    await screen.findByText('Install the app');
    expect(router.state.location.pathname).toBe('/install');
  });

  it('opens the app with shop and host, showing the original navigation (with Recent checkouts, Shipping zones and Backup)', async () => {
    renderAt('/faq?shop=a.myshopify.com&host=aG9zdA');
    await screen.findByText('In what order are my rules applied?');
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect([...nav.querySelectorAll('a')].map((a) => a.textContent)).toEqual([
      'Dashboard',
      'Global Rules',
      'Product Rules',
      'Recent checkouts',
      'Shipping zones',
      'Settings',
      'Backup',
      'FAQ',
    ]);
    expect(screen.getByRole('link', { name: 'FAQ' }).getAttribute('aria-current')).toBe('page');
    expect(sessionStorage.getItem('ratesmith:shop')).toBe('a.myshopify.com');
  });

  it('keeps a broken screen inside its error boundary', async () => {
    const Broken = () => {
      throw new Error('boom');
    };
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    renderAt('/', [{ path: '/', Component: Broken, errorElement: <RouteError /> }]);
    await screen.findByText('Something went wrong');
    expect(screen.getByRole('button', { name: 'Back to the dashboard' })).toBeTruthy();
  });
});
