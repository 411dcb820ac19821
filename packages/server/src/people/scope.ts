import { DomainError } from '../errors/domain-error.js';

/**
 * Which hosts a person or token may see: those whose newest report names one of `customers`
 * (`system-customer-name=`) or belongs to one of `groups` (system groups). Both empty: every host.
 */
export interface AccessScope {
  customers: string[];
  groups: string[];
}

/** The scope of an actor that sees every host. */
export const UNSCOPED: AccessScope = Object.freeze({ customers: [], groups: [] });

const MAX_ENTRIES = 100;
const MAX_LENGTH = 255;

/** Whether the scope limits what its actor sees. */
export const isScoped = (scope: AccessScope): boolean => scope.customers.length > 0 || scope.groups.length > 0;

/** A scope as given (an API body, CLI flags): entries trimmed, empty and repeated ones dropped; an `invalid` {@link DomainError} beyond the limits. */
export function normalizeScope(scope: Partial<AccessScope> | undefined): AccessScope {
  return { customers: normalizeEntries(scope?.customers, 'customers'), groups: normalizeEntries(scope?.groups, 'groups') };
}

function normalizeEntries(entries: readonly string[] | undefined, name: string): string[] {
  const kept = [...new Set((entries ?? []).map((entry) => entry.trim()).filter((entry) => entry !== ''))];
  if (kept.length > MAX_ENTRIES) throw new DomainError('invalid', `scope.${name}: at most ${MAX_ENTRIES} entries`);
  const long = kept.find((entry) => [...entry].length > MAX_LENGTH);
  if (long !== undefined) throw new DomainError('invalid', `scope.${name}: an entry is longer than ${MAX_LENGTH} characters`);
  return kept;
}

/** A scope as its two stored columns hold it (JSON arrays; null when empty). */
export function scopeColumns(scope: AccessScope): { scopeCustomers: string | null; scopeGroups: string | null } {
  return {
    scopeCustomers: scope.customers.length > 0 ? JSON.stringify(scope.customers) : null,
    scopeGroups: scope.groups.length > 0 ? JSON.stringify(scope.groups) : null,
  };
}

/** The scope two stored columns hold; a column this server cannot read counts as empty, never as everything (see below). */
export function scopeFromColumns(customers: string | null | undefined, groups: string | null | undefined): AccessScope {
  return { customers: storedEntries(customers), groups: storedEntries(groups) };
}

/**
 * The entries of one stored column. A column that holds something unreadable must not widen the scope to every
 * host: it reads as one entry no host can match.
 */
function storedEntries(column: string | null | undefined): string[] {
  if (column === null || column === undefined || column === '') return [];
  try {
    const parsed: unknown = JSON.parse(column);
    if (Array.isArray(parsed) && parsed.every((entry) => typeof entry === 'string')) return parsed;
  } catch {
    // falls through
  }
  return ['\u0000unreadable scope'];
}
