/** One field's change, as an audit entry's `changes` holds it. */
export interface FieldChange {
  before: unknown;
  after: unknown;
}

/** A value as JSON writes it (a `Date` as its ISO 8601 string), so that equal values compare equal. */
const asJson = (value: unknown): unknown => (value === undefined ? null : (JSON.parse(JSON.stringify(value)) as unknown));

/**
 * The `fields` whose values differ between `before` and `after` (either absent: a create or a delete), each as
 * `{ before, after }`: what an audit entry says changed.
 */
export function fieldChanges<T extends object>(
  before: T | undefined,
  after: T | undefined,
  fields: readonly (keyof T & string)[],
): Record<string, FieldChange> {
  const changes: Record<string, FieldChange> = {};
  for (const field of fields) {
    const was = asJson(before?.[field]);
    const is = asJson(after?.[field]);
    if (JSON.stringify(was) !== JSON.stringify(is)) changes[field] = { before: was, after: is };
  }
  return changes;
}
