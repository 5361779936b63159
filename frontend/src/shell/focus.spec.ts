import { focusElement, focusWhenReady, MAIN_ID } from './focus';
import { dialogOpener, firstControl, leftUnchanged } from './focus-targets';

/** Waits for the MutationObserver callbacks of what the test just changed. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  text = '',
): HTMLElementTagNameMap[K] {
  const made = document.createElement(tag);
  made.textContent = text;
  return made;
}

beforeEach(() => {
  document.body.innerHTML = `<main id="${MAIN_ID}"></main>`;
});

describe('focusElement', () => {
  it('makes a heading focusable from script only, and leaves a button as it is', () => {
    const heading = document.body.appendChild(element('h1', 'Global Rules'));
    expect(focusElement(heading)).toBe(true);
    expect(document.activeElement).toBe(heading);
    expect(heading.getAttribute('tabindex')).toBe('-1');

    const button = document.body.appendChild(element('button', 'Save'));
    expect(focusElement(button)).toBe(true);
    expect(button.hasAttribute('tabindex')).toBe(false);
  });
});

describe('leftUnchanged', () => {
  it('tells a field left as the app focused it from one the merchant changed or chose', () => {
    const placed = document.body.appendChild(element('input'));
    focusElement(placed);
    expect(leftUnchanged(placed)).toBe(true);
    // Once: the next visit is the merchant's.
    expect(leftUnchanged(placed)).toBe(false);

    focusElement(placed);
    placed.value = 'Ontario';
    expect(leftUnchanged(placed)).toBe(false);

    const visited = document.body.appendChild(element('input'));
    visited.focus();
    expect(leftUnchanged(visited)).toBe(false);
  });
});

describe('focusWhenReady', () => {
  it('focuses an element that appears after the call', async () => {
    let target: HTMLElement | null = null;
    focusWhenReady(() => target);
    await settle();
    expect(document.activeElement).toBe(document.body);
    target = document.body.appendChild(element('button', 'Edit Summer'));
    await settle();
    expect(document.activeElement).toBe(target);
  });

  it('waits while a modal dialog is open: Polaris keeps focus in it until it has gone', async () => {
    const dialog = document.body.appendChild(element('div'));
    dialog.setAttribute('role', 'dialog');
    dialog.setAttribute('aria-modal', 'true');
    const target = document.body.appendChild(element('button', 'Delete Summer'));
    focusWhenReady(() => target);
    await settle();
    expect(document.activeElement).not.toBe(target);
    dialog.remove();
    await settle();
    expect(document.activeElement).toBe(target);
  });

  it('stops without focusing once `unless` holds (the page put focus somewhere itself)', async () => {
    const mine = document.getElementById(MAIN_ID)!.appendChild(element('input'));
    let target: HTMLElement | null = null;
    focusWhenReady(() => target, { unless: () => document.activeElement === mine });
    mine.focus();
    target = document.body.appendChild(element('h1', 'Editor'));
    await settle();
    expect(document.activeElement).toBe(mine);
  });

  it('gives up after its time, and stops when told to', async () => {
    let late: HTMLElement | null = null;
    focusWhenReady(() => late, { timeoutMs: 5 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    late = document.body.appendChild(element('button', 'Late'));
    await settle();
    expect(document.activeElement).toBe(document.body);

    let stopped: HTMLElement | null = null;
    const stop = focusWhenReady(() => stopped);
    stop();
    stopped = document.body.appendChild(element('button', 'Stopped'));
    await settle();
    expect(document.activeElement).toBe(document.body);
  });
});

describe('firstControl', () => {
  it("is a row's first control, focused once it is enabled again", async () => {
    const row = document.body.appendChild(element('div'));
    row.innerHTML = '<span>Summer</span><button disabled>Enabled</button><button>Edit</button>';
    expect(firstControl(row)?.textContent).toBe('Enabled');
    expect(firstControl(null)).toBeNull();
    focusWhenReady(() => firstControl(row));
    await settle();
    expect(document.activeElement).toBe(document.body);
    firstControl(row)!.removeAttribute('disabled');
    await settle();
    expect(document.activeElement?.textContent).toBe('Enabled');
  });
});

describe('dialogOpener', () => {
  it('gives focus back to what opened the dialog, if it is still there', async () => {
    const opener = dialogOpener();
    const button = document.body.appendChild(element('button', 'Rename Summer'));
    button.focus();
    opener.remember();
    button.blur();
    opener.restore();
    await settle();
    expect(document.activeElement).toBe(button);

    button.focus();
    opener.remember();
    button.remove();
    opener.restore();
    await settle();
    expect(document.activeElement).toBe(document.body);
  });
});
