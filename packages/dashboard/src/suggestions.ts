// How the typed filters' suggestions read and are moved through (the combobox itself: components/SuggestInput.tsx).
import type { FacetField, FacetValue } from '@org/audit-client/sdk';

/** What a suggestion reads as in the input: a key by its label, any other value as stored. */
export const suggestionText = (field: FacetField, suggestion: FacetValue): string =>
  field === 'key' ? (suggestion.label ?? suggestion.value) : suggestion.value;

/** The suggestion marked after an arrow key: the first (down) or last (up) when none is, round the ends. */
export function nextActive(active: number, step: 1 | -1, count: number): number {
  if (count === 0) return -1;
  if (active < 0 || active >= count) return step > 0 ? 0 : count - 1;
  return (active + step + count) % count;
}
