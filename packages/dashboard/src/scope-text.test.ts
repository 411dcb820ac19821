import { describe, expect, it } from 'vitest';
import { scopeFromFields, scopeText } from './scope-text.js';

describe('scopes in words and from form fields', () => {
  it('reads comma-separated fields, dropping blanks and repeats', () => {
    expect(scopeFromFields(' acme, beta,,acme ', '')).toEqual({ customers: ['acme', 'beta'], groups: [] });
    expect(scopeFromFields('', ' ')).toEqual({ customers: [], groups: [] });
  });
  it('says "all hosts" for no scope, else what it names', () => {
    expect(scopeText({ customers: [], groups: [] })).toBe('all hosts');
    expect(scopeText({ customers: ['acme'], groups: ['web', 'db'] })).toBe('customers acme; groups web, db');
  });
});
