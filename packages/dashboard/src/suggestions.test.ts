import { describe, expect, it } from 'vitest';
import { nextActive, suggestionText } from './suggestions.js';

describe('suggestions of a typed filter', () => {
  it('moves the marked suggestion with the arrow keys, round the ends, from none to the first or last', () => {
    expect(nextActive(-1, 1, 3)).toBe(0);
    expect(nextActive(-1, -1, 3)).toBe(2);
    expect(nextActive(0, 1, 3)).toBe(1);
    expect(nextActive(2, 1, 3)).toBe(0);
    expect(nextActive(0, -1, 3)).toBe(2);
    expect(nextActive(5, 1, 3)).toBe(0); // fewer suggestions arrived meanwhile
    expect(nextActive(-1, 1, 0)).toBe(-1);
  });

  it('reads a key by its label (its id is what the filter takes), any other value as stored', () => {
    expect(suggestionText('key', { value: 'k1', label: 'demo', hosts: 3 })).toBe('demo');
    expect(suggestionText('key', { value: 'k1', label: null, hosts: 3 })).toBe('k1');
    expect(suggestionText('group', { value: 'webservers', label: null, hosts: 612 })).toBe('webservers');
  });
});
