import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderScreen } from '../test-utils';
import { SaveBar, SAVE_SHORTCUT } from './SaveBar';

/** The save bar of a form with `dirty` edits; `saves` counts what Save (button or keys) did. */
function renderBar({ dirty, saveDisabled = false }: { dirty: boolean; saveDisabled?: boolean }) {
  const saves: string[] = [];
  renderScreen(
    <>
      <input aria-label="Carrier name" />
      <SaveBar
        dirty={dirty}
        saving={false}
        saveDisabled={saveDisabled}
        onSave={() => saves.push('save')}
        onDiscard={() => undefined}
        subject="these settings"
      />
    </>,
    '/settings',
  );
  return saves;
}

const ctrlS = '{Control>}s{/Control}';

describe('the save shortcut', () => {
  it('saves from any field while there are unsaved edits, and says so in the bar', async () => {
    const user = userEvent.setup();
    const saves = renderBar({ dirty: true });
    const bar = screen.getByRole('region', { name: 'Unsaved changes' });
    expect(within(bar).getByText(`${SAVE_SHORTCUT} saves`)).toBeTruthy();
    await user.click(screen.getByLabelText('Carrier name'));
    await user.keyboard(ctrlS);
    expect(saves).toEqual(['save']);
    await user.keyboard('{Meta>}s{/Meta}');
    expect(saves).toEqual(['save', 'save']);
    // A Cyrillic layout's S key saves; Dvorak's O (where QWERTY has S) opens, as it should.
    fireEvent.keyDown(window, { key: 'ы', code: 'KeyS', ctrlKey: true });
    fireEvent.keyDown(window, { key: 'o', code: 'KeyS', ctrlKey: true });
    expect(saves).toHaveLength(3);
  });

  it('does nothing without edits', async () => {
    const user = userEvent.setup();
    const saves = renderBar({ dirty: false });
    await user.keyboard(ctrlS);
    expect(saves).toEqual([]);
    expect(screen.queryByRole('region', { name: 'Unsaved changes' })).toBeNull();
  });

  it('leaves Save to the merchant while the form has errors shown', async () => {
    const user = userEvent.setup();
    const saves = renderBar({ dirty: true, saveDisabled: true });
    await user.keyboard(ctrlS);
    expect(saves).toEqual([]);
  });
});
