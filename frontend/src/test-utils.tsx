import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { AppProviders } from './AppProviders';

/**
 * Renders a screen as the app does (Polaris AppProvider, toasts, a router at
 * `path`), for component tests.
 */
export function renderScreen(ui: ReactElement, path = '/'): RenderResult {
  const router = createMemoryRouter([{ path: '*', element: ui }], { initialEntries: [path] });
  return render(
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>,
  );
}
