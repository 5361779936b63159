/**
 * One MediaQueryList per query for the whole page. Polaris' Button, Icon and
 * Card each ask `window.matchMedia` for all 15 of its breakpoints as they mount
 * (useBreakpoints), which at 100 rules in the editor is about 18,000 new lists
 * and 60 ms of a load (docs/performance.md, "The editor with 100 filters"). A
 * MediaQueryList is live (its `matches` and change events follow the window),
 * so handing out the same one for the same query changes nothing but identity.
 */
export function shareMediaQueries(target: Window = window): void {
  const make = target.matchMedia?.bind(target);
  if (!make) return;
  const lists = new Map<string, MediaQueryList>();
  target.matchMedia = (query: string) => {
    let list = lists.get(query);
    if (!list) {
      list = make(query);
      lists.set(query, list);
    }
    return list;
  };
}
