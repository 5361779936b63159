import { Checkbox, FormLayout, Select, TextField } from '@shopify/polaris';
import { act } from '@testing-library/react';
import { renderWithPolaris } from './editor/testing';
import { jsdomOwn } from './test-jsdom-speed';

/** The faster answers of test-jsdom-speed.ts must be jsdom's own, element for element. */

const EDGE_CASES = `
  <label id="l1" for="a">A</label><input id="a"><input id="a">
  <label id="l2"><span>B</span><input id="b"><select id="c"></select></label>
  <label id="l3" for="hid">H</label><input id="hid" type="HIDDEN">
  <label id="l4" for="d">D1</label><div id="d"></div>
  <label id="l5" for="">E<input id="e5"></label>
  <label id="l6" for='x"y\\z'>Q</label><textarea id='x"y\\z'></textarea>
  <label id="l7" for="b">B2</label>
  <label id="l8"><input type="hidden" id="h2"><button id="btn">x</button></label>
  <label id="l9" for="m">M</label><meter id="m"></meter><output id="o"></output><progress id="p"></progress>
  <label id="l10" for="o"><progress id="p2"></progress></label>`;

function expectSameLabels(root: ParentNode) {
  const labels = Array.from(root.querySelectorAll('label'));
  const controls = Array.from(
    root.querySelectorAll('button, input, meter, output, progress, select, textarea'),
  ) as HTMLElement[];
  expect(labels.length + controls.length).toBeGreaterThan(5);
  for (const label of labels) expect(label.control).toBe(jsdomOwn.control.call(label));
  for (const control of controls) {
    const own = jsdomOwn.labels.get(Object.getPrototypeOf(control) as object)!.call(control);
    const fast = (control as HTMLInputElement).labels;
    expect(fast === null ? null : Array.from(fast)).toEqual(own === null ? null : Array.from(own));
  }
}

describe("test-jsdom-speed.ts gives jsdom's own answers", () => {
  it('a label’s control and a control’s labels, on the standard’s edge cases', () => {
    document.body.innerHTML = EDGE_CASES;
    expectSameLabels(document);
    expect(
      Array.from((document.getElementById('b') as HTMLInputElement).labels!).map((l) => l.id),
    ).toEqual(['l2', 'l7']);
    // A tree not in the document: the label's root is the detached element.
    const detached = document.createElement('div');
    detached.innerHTML = EDGE_CASES;
    expectSameLabels(detached);
  });

  it('the same on a Polaris form, before and after an id changes', () => {
    const { container } = renderWithPolaris(
      <FormLayout>
        <TextField label="Carrier name" value="" onChange={() => undefined} autoComplete="off" />
        <Select label="Action" options={['Add', 'Set']} value="Add" onChange={() => undefined} />
        <Checkbox label="Bump shipping" checked={false} onChange={() => undefined} />
      </FormLayout>,
    );
    expectSameLabels(container);
    container.querySelector('input')!.id = 'renamed';
    expectSameLabels(container);
  });

  it('each element’s computed style, through changes of attributes, styles, tree and focus', () => {
    document.body.innerHTML = `<div id="outer"><button id="b1">One</button><input id="i1"><p id="p">x</p></div>`;
    const all = () => Array.from(document.querySelectorAll('*'));
    const PROPERTIES = [
      'display',
      'visibility',
      'outline',
      'pointer-events',
      'color',
      'border-style',
    ];
    const expectSame = () => {
      for (const element of all())
        for (const property of PROPERTIES)
          expect([
            element.id,
            property,
            getComputedStyle(element).getPropertyValue(property),
          ]).toEqual([
            element.id,
            property,
            jsdomOwn.computeStyle(element).getPropertyValue(property),
          ]);
    };
    const steps: (() => void)[] = [
      () => undefined,
      () => document.getElementById('outer')!.setAttribute('style', 'visibility: hidden'),
      () => (document.getElementById('p')!.style.display = 'none'),
      () => document.getElementById('b1')!.setAttribute('disabled', ''),
      () => document.getElementById('i1')!.focus(),
      () => document.getElementById('b1')!.removeAttribute('disabled'),
      () => document.getElementById('b1')!.focus(),
      () =>
        document
          .getElementById('b1')!
          .dispatchEvent(new MouseEvent('mousedown', { bubbles: true })),
      () => document.getElementById('outer')!.removeAttribute('style'),
      () =>
        document
          .getElementById('outer')!
          .append(Object.assign(document.createElement('span'), { id: 's' })),
      () => document.getElementById('p')!.setAttribute('hidden', ''),
      () => (document.getElementById('b1') as HTMLButtonElement).blur(),
    ];
    // Each change is read at once (the observer has not run yet) and again after a microtask.
    for (const step of steps) {
      expectSame();
      step();
      expectSame();
      act(() => undefined);
    }
    expect(getComputedStyle(document.getElementById('outer')!).visibility).toBe('visible');
    expect(getComputedStyle(document.getElementById('p')!).display).toBe('none');
  });
});
