// Two of jsdom's DOM answers computed the same way, faster: Testing Library's role and label
// queries and user-event ask them for every element they consider, and on a Polaris page
// jsdom's own way took most of a component test's CPU. Component tests only (the browser
// tests run in Chromium).

// 1. getComputedStyle matches jsdom's whole default stylesheet (120 rules) against the
// element and, for `visibility`, against every ancestor again: about a millisecond a call.
// Its answer depends only on the document (elements, attributes, inline styles, text of
// <style>) and on which element has focus or is active (the default sheet's :focus and
// :active rules), so each element's answer is kept until any of those changes.
const computeStyle = window.getComputedStyle.bind(window);

let kept = new WeakMap<Element, CSSStyleDeclaration>();
const forget = () => {
  kept = new WeakMap();
};
const changes = new MutationObserver(forget);
changes.observe(document, {
  subtree: true,
  childList: true,
  attributes: true,
  characterData: true,
});
for (const type of ['focusin', 'focusout', 'mousedown', 'mouseup', 'pointerdown', 'pointerup'])
  document.addEventListener(type, forget, true);

window.getComputedStyle = (element: Element, pseudoElement?: string | null) => {
  if (pseudoElement) return computeStyle(element, pseudoElement);
  // Changes made since the observer last ran (it runs only at the next microtask).
  if (changes.takeRecords().length > 0) forget();
  let style = kept.get(element);
  if (!style) {
    style = computeStyle(element);
    kept.set(element, style);
  }
  return style;
};

// 2. A form control's `labels`: jsdom asks every node of the document whether it is a label
// whose control is this one, and a label with `for` finds its control by walking the whole
// document: quadratic in the page's size for each control. The HTML standard's definitions
// (a label's labeled control; a control's labels, in tree order) with selector queries instead.
const LABELABLE = 'button, input:not([type="hidden" i]), meter, output, progress, select, textarea';

/** A selector of elements whose attribute `name` is exactly `value`. */
const attributeIs = (name: string, value: string) =>
  `[${name}="${value.replace(/["\\]/g, '\\$&')}"]`;

function labeledControl(label: HTMLLabelElement): Element | null {
  if (!label.hasAttribute('for')) return label.querySelector(LABELABLE);
  const id = label.getAttribute('for')!;
  if (id === '') return null;
  const root = label.getRootNode() as ParentNode & Node;
  // A document finds an id from its map of ids; a detached tree is searched.
  const first =
    root instanceof Document
      ? root.getElementById(id)
      : root instanceof Element && root.matches(attributeIs('id', id))
        ? root
        : (root.querySelector?.(attributeIs('id', id)) ?? null);
  return first?.matches(LABELABLE) ? first : null;
}

const CONTROLS = [
  HTMLButtonElement,
  HTMLInputElement,
  HTMLMeterElement,
  HTMLOutputElement,
  HTMLProgressElement,
  HTMLSelectElement,
  HTMLTextAreaElement,
];
const getter = (prototype: object, name: string) =>
  Object.getOwnPropertyDescriptor(prototype, name)!.get!;

/** jsdom's own answers, for test-jsdom-speed.spec.tsx to compare with. */
export const jsdomOwn = {
  computeStyle,
  control: getter(HTMLLabelElement.prototype, 'control') as (
    this: HTMLLabelElement,
  ) => Element | null,
  labels: new Map<object, (this: HTMLElement) => NodeListOf<HTMLLabelElement> | null>(
    CONTROLS.map((c) => [c.prototype, getter(c.prototype, 'labels')]),
  ),
};

Object.defineProperty(HTMLLabelElement.prototype, 'control', {
  configurable: true,
  get(this: HTMLLabelElement) {
    return labeledControl(this);
  },
});

for (const control of CONTROLS) {
  Object.defineProperty(control.prototype, 'labels', {
    configurable: true,
    get(this: HTMLElement) {
      if (this instanceof HTMLInputElement && this.type === 'hidden') return null;
      // The only labels that can name this control: those whose `for` is its id, and
      // its ancestors without `for`.
      const root = this.getRootNode() as ParentNode & Node;
      const candidates = new Set<HTMLLabelElement>();
      if (this.id) {
        const named = `label${attributeIs('for', this.id)}`;
        if (root instanceof HTMLLabelElement && root.matches(named)) candidates.add(root);
        root.querySelectorAll?.<HTMLLabelElement>(named).forEach((label) => candidates.add(label));
      }
      for (let up = this.parentElement; up; up = up.parentElement)
        if (up instanceof HTMLLabelElement && !up.hasAttribute('for')) candidates.add(up);
      return [...candidates]
        .filter((label) => labeledControl(label) === this)
        .sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
    },
  });
}
