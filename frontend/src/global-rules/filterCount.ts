/** "Contains 3 filters" with the ruleset's real count (the original always said 7). */
export function filterCountLabel(count: number): string {
  if (count === 0) return 'No rules yet';
  return `Contains ${count} ${count === 1 ? 'rule' : 'rules'}`;
}
