import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeGateway, renderScreen } from '../test-utils';
import GlobalRules from './GlobalRules';

/**
 * Focus on the Global Rules list (issue 36, point 9): a row's buttons are
 * disabled while its call runs and a dialog leaves focus on nothing when it
 * closes, so each action says where focus goes next.
 */
type Replies = Parameters<typeof fakeGateway>[0];

const summary = (id: string, name: string, active: boolean) => ({
  id,
  name,
  position: 0,
  filters_count: 0,
  active,
});
const list = (activeId: string | null, ...names: [string, string][]) => ({
  status: 200,
  body: {
    shop: { shop: 'a.myshopify.com', global_rule_id: activeId },
    globalRules: names.map(([id, name]) => summary(id, name, id === activeId)),
  },
});
const status = (message: string) => ({ status: 200, body: { status: true, message } });
const focused = () => document.activeElement;

/**
 * Presses `button` from the keyboard: focus on it, then Enter. (A click with the mouse
 * leaves focus on nothing: Polaris buttons blur on mouse up.)
 */
async function press(user: ReturnType<typeof userEvent.setup>, button: HTMLElement) {
  act(() => button.focus());
  await user.keyboard('{Enter}');
}

/** Presses the open dialog's button named `action`. */
async function inDialog(user: ReturnType<typeof userEvent.setup>, action: string) {
  await press(
    user,
    within(await screen.findByRole('dialog')).getByRole('button', { name: action }),
  );
}

/** Opens `opener`'s dialog and cancels it: focus is back on `opener`. */
async function cancelReturnsTo(user: ReturnType<typeof userEvent.setup>, opener: HTMLElement) {
  await press(user, opener);
  await inDialog(user, 'Cancel');
  await waitFor(() => expect(focused()).toBe(opener));
}

describe('focus on the Global Rules list', () => {
  it('goes to a created ruleset’s row, and back to Add Ruleset when the dialog is cancelled', async () => {
    const user = userEvent.setup();
    const gw = fakeGateway({
      'GET /api/global-rules': list(null, ['r1', 'Summer']),
      'POST /api/global-rules': {
        status: 200,
        body: { status: true, message: 'Ruleset created.', rule: summary('r2', 'Autumn', false) },
      },
    });
    renderScreen(<GlobalRules />, '/global-rules', gw.api);
    await screen.findByText('Summer');
    const add = screen.getByRole('button', { name: 'Add Ruleset' });

    await cancelReturnsTo(user, add);

    await press(user, add);
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Ruleset name'), 'Autumn{Enter}');
    // The new row's first control: its Enabled toggle, which names it.
    await waitFor(() =>
      expect(focused()).toBe(screen.getByRole('button', { name: 'Disabled: enable Autumn' })),
    );
  });

  it('stays on the row whose toggle was pressed while its call ran', async () => {
    const user = userEvent.setup();
    const replies: Replies = {
      '/api/global-rules': list(null, ['r1', 'Summer']),
      '/api/global-rules/r1/toggle': status('Ruleset enabled.'),
    };
    renderScreen(<GlobalRules />, '/global-rules', fakeGateway(replies).api);
    const toggle = await screen.findByRole('button', { name: 'Disabled: enable Summer' });
    replies['/api/global-rules'] = list('r1', ['r1', 'Summer']);
    await press(user, toggle);
    await waitFor(() =>
      expect(focused()).toBe(screen.getByRole('button', { name: 'Summer is enabled' })),
    );
  });

  it('goes to the heading after a deletion, and back to Delete when it is cancelled', async () => {
    const user = userEvent.setup();
    const replies: Replies = {
      '/api/global-rules': list(null, ['r1', 'Summer'], ['r2', 'Winter']),
      'DELETE /api/global-rules/r2': status('Ruleset deleted.'),
    };
    renderScreen(<GlobalRules />, '/global-rules', fakeGateway(replies).api);
    const remove = await screen.findByRole('button', { name: 'Delete Winter' });

    await cancelReturnsTo(user, remove);

    await press(user, remove);
    replies['/api/global-rules'] = list(null, ['r1', 'Summer']);
    await inDialog(user, 'Delete');
    await waitFor(() =>
      expect(focused()).toBe(screen.getByRole('heading', { level: 1, name: 'Global Rules' })),
    );
    expect(screen.queryByText('Winter')).toBeNull();
  });
});
