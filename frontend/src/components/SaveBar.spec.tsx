import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
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

/**
 * Inside the Shopify admin, App Bridge's script defines `ui-save-bar` and shows Shopify's
 * own bar from it. That script cannot load here, so a stand-in element keeps what the
 * real one is told (App Bridge's docs: `show()`, `hide()`, the buttons as its children).
 */
describe("inside the Shopify admin: App Bridge's contextual save bar", () => {
  const calls: string[] = [];
  beforeAll(() => {
    if (!customElements.get('ui-save-bar'))
      customElements.define(
        'ui-save-bar',
        class extends HTMLElement {
          show() {
            calls.push(`show ${this.id}`);
          }
          hide() {
            calls.push(`hide ${this.id}`);
          }
        },
      );
  });
  let meta: HTMLMetaElement;
  beforeEach(() => {
    calls.length = 0;
    meta = Object.assign(document.createElement('meta'), { name: 'shopify-api-key' });
    document.head.append(meta);
  });
  afterEach(() => meta.remove());

  it("opens Shopify's bar with Save and Discard while there are edits, and hides it after", () => {
    const done: string[] = [];
    function Form() {
      const [dirty, setDirty] = useState(true);
      return (
        <>
          <button onClick={() => setDirty(false)}>Mark saved</button>
          <SaveBar
            dirty={dirty}
            saving={false}
            onSave={() => done.push('save')}
            onDiscard={() => done.push('discard')}
            subject="these settings"
          />
        </>
      );
    }
    renderScreen(<Form />, '/settings');
    const element = document.querySelector('ui-save-bar#ratesmith-save-bar')!;
    expect(element).not.toBeNull();
    expect(calls).toEqual(['show ratesmith-save-bar']);
    // No in-page bar beside Shopify's.
    expect(screen.queryByRole('region', { name: 'Unsaved changes' })).toBeNull();
    const [save, discard] = [...element.querySelectorAll('button')];
    expect([save!.textContent, save!.getAttribute('variant')]).toEqual(['Save', 'primary']);
    expect(discard!.textContent).toBe('Discard');
    fireEvent.click(save!);
    fireEvent.click(discard!);
    expect(done).toEqual(['save', 'discard']);
    fireEvent.click(screen.getByRole('button', { name: 'Mark saved' }));
    expect(calls.at(-1)).toBe('hide ratesmith-save-bar');
  });
});
