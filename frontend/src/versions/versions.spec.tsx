import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { VersionJson } from '../api';
import { fakeGateway, renderScreen } from '../test-utils';
import { ActivityCard } from './ActivityCard';
import { VersionsModal } from './VersionsModal';

const version = (number: number, overrides: Partial<VersionJson> = {}): VersionJson => ({
  kind: 'ruleset',
  subject_id: 'r1',
  subject_name: 'Summer',
  number,
  at: '2026-11-24T10:30:00.000Z',
  user: '42',
  event: 'save',
  summary: `summary of ${number}`,
  checkout: true,
  ...overrides,
});

const BASE = '/api/global-rules/r1/versions';

function renderModal(replies: Parameters<typeof fakeGateway>[0], dirty = false) {
  const gw = fakeGateway(replies);
  const onRestored = jest.fn();
  const onClose = jest.fn();
  renderScreen(
    <VersionsModal
      subjectPath="/api/global-rules/r1"
      noun="ruleset"
      open
      onClose={onClose}
      onRestored={onRestored}
      dirty={dirty}
    />,
    '/',
    gw.api,
  );
  return { gw, onRestored, onClose };
}

describe('the versions dialog', () => {
  it('lists versions newest first with when, who and summary; the newest has no Restore', async () => {
    renderModal({
      [BASE]: {
        status: 200,
        body: { status: true, versions: [version(2), version(1, { user: '' })] },
      },
    });
    const list = await screen.findByRole('list', { name: 'Versions, newest first' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(rows[0]!.textContent).toContain('Version 2 · Saved (current)');
    expect(rows[0]!.textContent).toContain('by staff member 42');
    expect(rows[0]!.textContent).toContain('summary of 2');
    expect(within(rows[0]!).queryByRole('button', { name: 'Restore version 2' })).toBeNull();
    // No staff user recorded: only the time.
    expect(rows[1]!.textContent).not.toContain('by staff member');
    expect(within(rows[1]!).getByRole('button', { name: 'Restore version 1' })).toBeTruthy();
  });

  it('says when there is no version yet, and shows a failed load with Retry', async () => {
    const replies: Parameters<typeof fakeGateway>[0] = {
      [BASE]: {
        status: 503,
        body: { status: false, message: 'The rules service is not available right now' },
      },
    };
    renderModal(replies);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The rules service is not available right now',
    );
    replies[BASE] = { status: 200, body: { status: true, versions: [] } };
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('No versions yet')).toBeTruthy();
  });

  it("shows a version's changes in merchant words", async () => {
    renderModal({
      [BASE]: { status: 200, body: { status: true, versions: [version(2), version(1)] } },
      [`${BASE}/2`]: {
        status: 200,
        body: {
          status: true,
          version: version(2),
          rules: [],
          previous_number: 1,
          changes: [
            {
              type: 'changed',
              filter: 'Cheap',
              text: 'Changed rule "Cheap"',
              details: ['Amount: 4.99 → 7'],
            },
            { type: 'added', filter: 'New', text: 'Added rule "New" at #2', details: [] },
          ],
        },
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'View changes of version 2' }));
    const changes = await screen.findByRole('list', { name: 'Changes' });
    expect(within(changes).getByText('Changed rule "Cheap"')).toBeTruthy();
    expect(within(changes).getByText('Amount: 4.99 → 7')).toBeTruthy();
    expect(within(changes).getByText('Added rule "New" at #2')).toBeTruthy();
    expect(screen.getByText('Compared with version 1.')).toBeTruthy();
  });

  it('restores after a confirmation that warns about unsaved edits, then reloads the editor', async () => {
    const { gw, onRestored, onClose } = renderModal(
      {
        [BASE]: { status: 200, body: { status: true, versions: [version(2), version(1)] } },
        [`POST ${BASE}/1/restore`]: {
          status: 200,
          body: { status: true, message: 'Version 1 restored as version 3.', rules: [], number: 3 },
        },
      },
      true,
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Restore version 1' }));
    expect(screen.getByText('Your unsaved edits on this page will be replaced.')).toBeTruthy();
    expect(gw.calls.some((c) => c.method === 'POST')).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Restore' }));
    await waitFor(() => expect(onRestored).toHaveBeenCalledTimes(1));
    expect(onClose).toHaveBeenCalled();
    expect(gw.calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([
      `${BASE}/1/restore`,
    ]);
    expect(within(screen.getByTestId('toasts')).getByRole('status').textContent).toContain(
      'Version 1 restored as version 3.',
    );
  });

  it('keeps the dialog open and says why when a restore fails', async () => {
    const { onRestored } = renderModal({
      [BASE]: { status: 200, body: { status: true, versions: [version(2), version(1)] } },
      [`POST ${BASE}/1/restore`]: {
        status: 404,
        body: { status: false, message: 'This version is no longer kept.' },
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Restore version 1' }));
    expect(screen.queryByText('Your unsaved edits on this page will be replaced.')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Restore' }));
    await waitFor(() =>
      expect(within(screen.getByTestId('toasts')).getByRole('alert').textContent).toContain(
        'This version is no longer kept.',
      ),
    );
    expect(screen.getByRole('button', { name: 'Restore' })).toBeTruthy();
    expect(onRestored).not.toHaveBeenCalled();
  });
});

describe("the Dashboard's activity card", () => {
  it('lists the changes that reached checkout, each linking to where it is edited', async () => {
    const gw = fakeGateway({
      '/api/activity': {
        status: 200,
        body: {
          status: true,
          activity: [
            version(4, { event: 'enable', summary: 'Enabled: checkout uses this ruleset' }),
            version(1, {
              kind: 'settings',
              subject_id: 'settings',
              subject_name: 'Settings',
              summary: 'Changed carrier name',
            }),
          ],
        },
      },
    });
    renderScreen(<ActivityCard />, '/dashboard', gw.api);
    const list = await screen.findByRole('list', {
      name: 'Recent changes at checkout, newest first',
    });
    const rows = within(list).getAllByRole('listitem');
    expect(rows[0]!.textContent).toContain('Ruleset Summer: enabled (version 4)');
    expect(within(rows[0]!).getByRole('link', { name: 'Summer' }).getAttribute('href')).toBe(
      '/edit-global-rule/r1',
    );
    expect(within(rows[1]!).getByRole('link', { name: 'Settings' }).getAttribute('href')).toBe(
      '/settings',
    );
    expect(rows[1]!.textContent).toContain('Settings: saved (version 1)');
    expect(rows[1]!.textContent).toContain('Changed carrier name');
  });

  it('has an empty state, and an error with Retry', async () => {
    const replies: Parameters<typeof fakeGateway>[0] = {
      '/api/activity': { status: 500, body: { status: false, message: 'Something went wrong.' } },
    };
    renderScreen(<ActivityCard />, '/dashboard', fakeGateway(replies).api);
    expect((await screen.findByRole('alert')).textContent).toBe('Something went wrong.');
    replies['/api/activity'] = { status: 200, body: { status: true, activity: [] } };
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('No changes yet')).toBeTruthy();
  });
});
