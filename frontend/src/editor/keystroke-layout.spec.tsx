import { draftFilter } from '@ratesmith/contracts/testing';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { ApiProvider } from '../api';
import { AppProviders } from '../AppProviders';
import EditGlobalRule from '../pages/EditGlobalRule';
import { fakeGateway } from '../test-utils';

/**
 * What a key in a rule makes the browser redo beyond the rule itself
 * (docs/performance.md, "The editor with 100 filters"): no measuring of the
 * page (a forced layout of every rule), and no change to the page's structure
 * around the rules when the unsaved-changes bar comes or goes (Polaris' styles
 * for a first child restyle every button below it).
 */
async function openEditor() {
  const gateway = fakeGateway({
    '/api/global-rules/rules': {
      status: 200,
      body: {
        status: true,
        globalRule: { id: 'r1', name: 'Summer' },
        rules: [draftFilter({ id: 'f1', name: 'Small carts' })],
      },
    },
    '/api/settings': { status: 200, body: { status: true, message: '', settings: {} } },
  });
  const router = createMemoryRouter(
    [{ path: '/edit-global-rule/:id', element: <EditGlobalRule /> }],
    { initialEntries: ['/edit-global-rule/r1'] },
  );
  render(
    <ApiProvider client={gateway.api}>
      <AppProviders>
        <RouterProvider router={router} />
      </AppProviders>
    </ApiProvider>,
  );
  return (await screen.findByLabelText('Rule name')) as HTMLInputElement;
}

describe('a key in the rule editor', () => {
  afterEach(() => jest.restoreAllMocks());

  it("measures nothing of the page (Polaris' header actions keep their arrays)", async () => {
    const user = userEvent.setup();
    const name = await openEditor();
    await user.type(name, 'x'); // the first edit: the save bar shows
    const measured = jest.spyOn(HTMLElement.prototype, 'getBoundingClientRect');
    await user.type(name, 'yz');
    expect(measured).not.toHaveBeenCalled();
  });

  it('keeps the unsaved-changes bar in the page, hidden while nothing is unsaved', async () => {
    const user = userEvent.setup();
    const name = await openEditor();
    const bar = document.querySelector('.rs-save-bar') as HTMLElement;
    expect(bar.hidden).toBe(true);
    await user.type(name, '!');
    expect(document.querySelector('.rs-save-bar')).toBe(bar);
    expect(bar.hidden).toBe(false);
    await user.type(name, '{Backspace}');
    expect(document.querySelector('.rs-save-bar')).toBe(bar);
    expect(bar.hidden).toBe(true);
  });
});
