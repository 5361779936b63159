// jsdom's getComputedStyle matches its whole default stylesheet (120 rules) against the
// element and, for `visibility`, against every ancestor again: about a millisecond a call
// on a Polaris page, and Testing Library's role and label queries and user-event's
// pointer-events check call it for every element they consider. In these tests its answer
// depends only on the document (elements, attributes, inline styles, text of <style>) and
// on which element has focus or is active (the default sheet's :focus and :active rules),
// so each element's answer is kept until any of those changes: the same answers, computed
// once. Component tests only (the browser tests run in Chromium).

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
