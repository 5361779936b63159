import { AppProvider } from '@shopify/polaris';
import en from '@shopify/polaris/locales/en.json';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { draftFilter } from '@ratesmith/contracts/testing';
import * as Conditions from './ConditionEditor';
import { FilterCard, type FilterActions } from './FilterCard';
import { filterFromWire, type EditorFilter } from './model';
import { DraftEditor, renderWithPolaris } from './testing';
import type { FilterDraftState } from './useFilterDraft';

const named = (...names: string[]) =>
  names.map((name, i) => draftFilter({ id: `f${i + 1}`, name }));
const headings = () =>
  screen.getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent);
const rule = (n: number) => screen.getByRole('region', { name: `Rule #${n}` });
const status = () => screen.getByRole('status').textContent;

describe('FilterEditor: tools for long lists', () => {
  it('renders only the edited card again, and keeps the other filters as they were', async () => {
    const user = userEvent.setup();
    const drafts: FilterDraftState[] = [];
    renderWithPolaris(
      <DraftEditor saved={named('North', 'South', 'East')} seen={(d) => drafts.push(d)} />,
    );
    const before = drafts.at(-1)!.filters;
    const wireBefore = drafts.at(-1)!.wire;
    const renders = jest.spyOn(Conditions, 'ConditionEditor');
    await user.type(within(rule(3)).getByLabelText('Rule name'), '!');
    // One key, one card: the condition editor of rule #3 and of no other rule.
    expect(renders).toHaveBeenCalledTimes(1);
    expect(renders.mock.calls[0]![0].query).toBe(before[2]!.raw_query);
    renders.mockRestore();
    const after: EditorFilter[] = drafts.at(-1)!.filters;
    expect(after[0]).toBe(before[0]);
    expect(after[1]).toBe(before[1]);
    expect(after[2]).toMatchObject({ name: 'East!' });
    expect(drafts.at(-1)!.dirty).toBe(true);
    // The wire form of an untouched filter is not made again.
    expect(drafts.at(-1)!.wire[0]).toBe(wireBefore[0]);
    expect(drafts.at(-1)!.wire[2]).not.toBe(wireBefore[2]);
  });

  it('searches the rules by name, with a count and an empty state', async () => {
    const user = userEvent.setup();
    renderWithPolaris(<DraftEditor saved={named('Zone 1 heavy', 'Zone 2 light', 'Express')} />);
    expect(status()).toBe('3 rules');

    const search = screen.getByLabelText('Search rules by name');
    await user.type(search, 'ZONE');
    expect(headings()).toEqual(['Rule #1: Zone 1 heavy', 'Rule #2: Zone 2 light']);
    expect(status()).toBe('2 of 3 rules match “ZONE”');

    // A card found stays while its name is edited, even when it no longer matches.
    await user.clear(within(rule(2)).getByLabelText('Rule name'));
    await user.type(within(rule(2)).getByLabelText('Rule name'), 'Light');
    expect(headings()).toEqual(['Rule #1: Zone 1 heavy', 'Rule #2: Light']);

    await user.clear(search);
    await user.type(search, 'nowhere');
    expect(screen.getByText('No rules match “nowhere”.')).toBeTruthy();
    expect(status()).toBe('0 of 3 rules match “nowhere”');
    expect(screen.queryAllByRole('region', { name: /^Rule #/ })).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Clear search' }));
    expect(headings()).toEqual(['Rule #1: Zone 1 heavy', 'Rule #2: Light', 'Rule #3: Express']);
    expect((search as HTMLInputElement).value).toBe('');
  });

  it('collapses and expands one rule or all, from the keyboard', async () => {
    const user = userEvent.setup();
    renderWithPolaris(<DraftEditor saved={named('North', 'South')} />);
    const toggle = screen.getByRole('button', { name: 'Collapse rule #1' });
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    toggle.focus();
    await user.keyboard('{Enter}');
    const expand = screen.getByRole('button', { name: 'Expand rule #1' });
    expect(expand.getAttribute('aria-expanded')).toBe('false');
    expect(within(rule(1)).queryByLabelText('Rule name')).toBeNull();
    expect(within(rule(1)).getByText('1 condition · Add Single Shipping Fee: 4.99')).toBeTruthy();
    expect(within(rule(2)).getByLabelText('Rule name')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Collapse all' }));
    expect(screen.queryAllByLabelText('Rule name')).toEqual([]);
    screen.getByRole('button', { name: 'Expand all' }).focus();
    await user.keyboard(' ');
    expect(screen.getAllByLabelText('Rule name')).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Collapse rule #1' })).toBeTruthy();
  });

  it('duplicates a rule after itself, and says why not at the limit', async () => {
    const user = userEvent.setup();
    const drafts: FilterDraftState[] = [];
    const { unmount } = renderWithPolaris(
      <DraftEditor saved={named('North', 'South')} seen={(d) => drafts.push(d)} />,
    );
    await user.click(screen.getByRole('button', { name: 'Duplicate rule #1' }));
    expect(headings()).toEqual(['Rule #1: North', 'Rule #2: North (copy)', 'Rule #3: South']);
    const [first, copy] = drafts.at(-1)!.wire;
    expect(copy!.id).not.toBe(first!.id);
    expect({ ...copy, id: '', raw_query: null, name: '' }).toEqual({
      ...first,
      id: '',
      raw_query: null,
      name: '',
    });
    expect(drafts.at(-1)!.errors).toEqual([]);
    unmount();

    // At the limit (a product rule holds at most 50 rules) the card says why, and asks nothing.
    const asked: string[] = [];
    const record = (name: string) => (id: string) => asked.push(`${name} ${id}`);
    const actions: FilterActions = {
      edit: record('edit'),
      move: record('move'),
      moveTo: record('moveTo'),
      duplicate: record('duplicate'),
      remove: record('remove'),
      toggle: record('toggle'),
      leave: record('leave'),
    };
    const card = (count: number) => (
      <FilterCard
        filter={filterFromWire(draftFilter({ id: 'p50', name: 'Hats' }))}
        number={count}
        count={count}
        scope="product"
        bumpEnabled={false}
        currency={null}
        collapsed={false}
        lazy={false}
        actions={actions}
        warnings={[]}
      />
    );
    const { rerender } = renderWithPolaris(card(50));
    await user.click(screen.getByRole('button', { name: 'Duplicate rule #50' }));
    expect(
      screen.getByText(
        'A product rule can have at most 50 rules, so Rule #50 was not duplicated. Remove a rule first.',
      ),
    ).toBeTruthy();
    expect(asked).toEqual([]);
    rerender(<AppProvider i18n={en}>{card(49)}</AppProvider>);
    await user.click(screen.getByRole('button', { name: 'Duplicate rule #49' }));
    expect(asked).toEqual(['duplicate p50']);
    expect(screen.queryByText(/was not duplicated/)).toBeNull();
  });

  it("gives each rule's card a form of its own, which Enter does not submit", async () => {
    // Chromium's autofill reads again, on every key, the form of the field typed into;
    // fields outside any form make one form of the whole page (docs/performance.md,
    // "The editor with 100 filters").
    const user = userEvent.setup();
    renderWithPolaris(<DraftEditor saved={named('A', 'B', 'C')} />);
    const forms = [1, 2, 3].map((n) => {
      const form = (within(rule(n)).getByLabelText('Rule name') as HTMLInputElement).form;
      expect(form).not.toBeNull();
      expect(rule(n).contains(form)).toBe(true);
      for (const field of rule(n).querySelectorAll('input, select, textarea, button'))
        expect((field as HTMLInputElement).form).toBe(form);
      return form!;
    });
    expect(new Set(forms).size).toBe(3);

    // A form of several fields has no implicit submission; a submit from anywhere goes nowhere.
    await user.type(within(rule(2)).getByLabelText('Rule name'), '!{Enter}');
    expect(headings()).toEqual(['Rule #1: A', 'Rule #2: B!', 'Rule #3: C']);
    expect(fireEvent.submit(forms[1]!)).toBe(false);
  });

  it('moves a rule to a position typed into a small form, Enter to move', async () => {
    const user = userEvent.setup();
    // Polaris' Popover watches its button's size as it mounts (a forced layout each): the
    // form's popover is made on the first open, not with every rule's card.
    const watched = jest.spyOn(window.ResizeObserver.prototype, 'observe');
    renderWithPolaris(<DraftEditor saved={named('A', 'B', 'C', 'D')} />);
    expect(watched).not.toHaveBeenCalled();
    watched.mockRestore();
    await user.click(screen.getByRole('button', { name: 'Move to a position: rule #4' }));
    const position = await screen.findByLabelText('New position for rule #4 (1 to 4)');
    await waitFor(() => expect(document.activeElement).toBe(position));
    await user.clear(position);
    await user.type(position, '9{Enter}');
    expect(screen.getByText('Enter a position from 1 to 4.')).toBeTruthy();
    expect(headings()).toEqual(['Rule #1: A', 'Rule #2: B', 'Rule #3: C', 'Rule #4: D']);

    await user.clear(position);
    await user.type(position, '2{Enter}');
    expect(headings()).toEqual(['Rule #1: A', 'Rule #2: D', 'Rule #3: B', 'Rule #4: C']);
    await act(async () => undefined);
    expect(screen.queryByLabelText(/^New position/)).toBeNull();
  });
});
