import { Page, TextField } from '@shopify/polaris';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect, useRef } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { AppProviders } from '../AppProviders';
import { EmbeddedShell } from './EmbeddedShell';

/** A page that puts focus on its own field when it opens (as a created ruleset's editor does). */
function FocusesItsField() {
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => field.current?.focus(), []);
  return (
    <Page title="Settings">
      <input ref={field} aria-label="Carrier name" />
    </Page>
  );
}

/** The shell around three pages, opened as the admin opens it (shop and host in the query). */
function renderShell() {
  const router = createMemoryRouter(
    [
      {
        element: <EmbeddedShell />,
        children: [
          { path: '/global-rules', element: <Page title="Global Rules" /> },
          {
            path: '/faq',
            element: (
              <Page title="FAQ">
                <TextField label="Search" autoComplete="off" />
              </Page>
            ),
          },
          { path: '/settings', element: <FocusesItsField /> },
        ],
      },
    ],
    { initialEntries: ['/global-rules?shop=a.myshopify.com&host=aG9zdA'] },
  );
  render(
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return router;
}

const heading = (name: string) => screen.getByRole('heading', { level: 1, name });

describe('the skip link and the focus after navigation', () => {
  beforeEach(() => sessionStorage.clear());

  it('is the first Tab stop and moves focus to the page heading, past the navigation', async () => {
    const user = userEvent.setup();
    renderShell();
    await screen.findByRole('heading', { name: 'Global Rules' });
    // The first load moves no focus: the skip link comes first.
    expect(document.activeElement).toBe(document.body);
    await user.tab();
    const skip = screen.getByRole('link', { name: 'Skip to content' });
    expect(document.activeElement).toBe(skip);
    await user.keyboard('{Enter}');
    expect(document.activeElement).toBe(heading('Global Rules'));
    // Focusable from script only: Tab never stops on it.
    expect(heading('Global Rules').getAttribute('tabindex')).toBe('-1');
  });

  it("focuses the new page's heading after a navigation from the menu", async () => {
    const user = userEvent.setup();
    renderShell();
    await user.click(await screen.findByRole('link', { name: 'FAQ' }));
    await waitFor(() => expect(document.activeElement).toBe(heading('FAQ')));
    // The next Tab is the page's first control, not the menu.
    await user.tab();
    expect(document.activeElement).toBe(screen.getByLabelText('Search'));
  });

  it('leaves focus where a page put it itself', async () => {
    const user = userEvent.setup();
    renderShell();
    await user.click(await screen.findByRole('link', { name: 'Settings' }));
    const field = await screen.findByLabelText('Carrier name');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(document.activeElement).toBe(field);
  });
});
