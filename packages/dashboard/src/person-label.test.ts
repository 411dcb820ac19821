import { describe, expect, it } from 'vitest';
import { personLabel } from './person-label.js';

const ID = '6f1c3a52-4d1e-4c41-9a57-3b0f3f1d2a01';

describe("a person's label in the owner and approver pickers", () => {
  it('gives the name with the email, which tells apart two people of one name', () => {
    expect(personLabel({ id: ID, email: 'grace@example.org', name: 'Grace Hopper' })).toBe('Grace Hopper (grace@example.org)');
  });

  it('gives the email alone for a person without a name (null or empty)', () => {
    expect(personLabel({ id: ID, email: 'ops@example.org', name: null })).toBe('ops@example.org');
    expect(personLabel({ id: ID, email: 'ops@example.org', name: '' })).toBe('ops@example.org');
  });
});
