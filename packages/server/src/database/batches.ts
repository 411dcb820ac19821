/** Most bound parameters in one statement: SQLite's oldest limit is 999. */
export const MAX_PARAMETERS = 999;

/** `items` cut into lists of at most `size`, in order: for statements that take many rows or keys at once. */
export function chunks<T>(items: T[], size: number): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += size) result.push(items.slice(start, start + size));
  return result;
}
