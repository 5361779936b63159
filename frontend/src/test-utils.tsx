import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { ApiProvider, createApiClient, type ApiClient } from './api';
import { AppProviders } from './AppProviders';

/**
 * Renders a screen as the app does (Polaris AppProvider, toasts, a router at
 * `path`, and `api` as the shell's api client), for component tests. `route`
 * is the screen's route pattern when it reads parameters (`/edit-global-rule/:id`).
 */
export function renderScreen(
  ui: ReactElement,
  path = '/',
  api?: ApiClient,
  route = '*',
): RenderResult {
  const router = createMemoryRouter([{ path: route, element: ui }], { initialEntries: [path] });
  const app = (
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  );
  return render(api ? <ApiProvider client={api}>{app}</ApiProvider> : app);
}

/**
 * A stand-in for the gateway at the fetch seam of the api client, for
 * component tests (browser tests use the real one): one reply per path (or
 * per "METHOD /path"), every call recorded; change `replies` to change answers. jsdom has no Response, so replies carry what the client reads.
 */
export function fakeGateway(replies: Record<string, { status: number; body: unknown }>) {
  const calls: { method: string; path: string; body: unknown; headers: Record<string, string> }[] =
    [];
  const fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const path = String(input);
    calls.push({
      method: init.method ?? 'GET',
      path,
      body: init.body ? JSON.parse(String(init.body)) : undefined,
      headers: (init.headers ?? {}) as Record<string, string>,
    });
    const bare = path.split('?')[0]!;
    const reply = replies[`${init.method ?? 'GET'} ${bare}`] ??
      replies[bare] ?? {
        status: 404,
        body: { status: false, message: 'Not found.' },
      };
    const text = JSON.stringify(reply.body);
    return {
      ok: reply.status < 300,
      status: reply.status,
      text: async () => text,
      json: async () => JSON.parse(text),
    } as Response;
  }) as typeof globalThis.fetch;
  return { calls, fetch, api: createApiClient({ tokens: { kind: 'none' }, fetch }) };
}
