// Polaris ships one stylesheet for all its components; the admin's entry CSS,
// which blocks the first paint, carried the rules of components it never
// renders. A Polaris component's class names are string literals in its module
// (its `styles` map), so a class that appears in none of the built JS can never
// be set: a selector that needs one cannot match, and goes. frontend/scripts/
// build.mjs builds once to read those classes, then builds with this PostCSS
// plugin, so the CSS file's content hash is that of what is served.
import postcss from 'postcss';

const POLARIS_CLASS = /Polaris-[A-Za-z0-9_-]+/g;
/** Selectors whose classes are not all required (a negation, an alternative): always kept. */
const CONDITIONAL = /:(not|is|where|has|matches)\(/;

/** The Polaris class names that JS can set. */
export function classesIn(js) {
  return new Set(js.match(POLARIS_CLASS) ?? []);
}

/** Whether a selector can match when only the `used` Polaris classes exist. */
export function selectorCanMatch(selector, used) {
  if (CONDITIONAL.test(selector)) return true;
  return (selector.match(/\.Polaris-[A-Za-z0-9_-]+/g) ?? []).every((c) => used.has(c.slice(1)));
}

/** The PostCSS plugin: drops what cannot match; `stats.dropped` counts the selectors. */
export function polarisPrune(used, stats = { dropped: 0 }) {
  return {
    postcssPlugin: 'ratesmith-prune-polaris',
    OnceExit(root) {
      root.walkRules((rule) => {
        // Keyframe steps (`from`, `50%`) are not selectors of elements.
        if (rule.parent?.type === 'atrule' && /keyframes$/i.test(rule.parent.name)) return;
        const kept = rule.selectors.filter((s) => selectorCanMatch(s, used));
        if (kept.length === rule.selectors.length) return;
        stats.dropped += rule.selectors.length - kept.length;
        if (kept.length === 0) rule.remove();
        else rule.selectors = kept;
      });
      // At-rules (@media, @supports, @layer) left empty go too, innermost first.
      for (let emptied = true; emptied;) {
        emptied = false;
        root.walkAtRules((at) => {
          if (at.nodes && at.nodes.length === 0) {
            at.remove();
            emptied = true;
          }
        });
      }
    },
  };
}

/** The plugin applied to one stylesheet (tests). */
export function prunePolarisCss(css, used) {
  const stats = { dropped: 0 };
  const out = postcss([polarisPrune(used, stats)]).process(css, { from: undefined }).css;
  return { css: out, dropped: stats.dropped };
}
