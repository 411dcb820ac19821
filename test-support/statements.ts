/** What a knex client emits for each statement it sends. */
interface QueryEmitter {
  on(event: 'query', listener: (query: { sql: string }) => void): unknown;
  removeListener(event: 'query', listener: (query: { sql: string }) => void): unknown;
}

/**
 * The statements `work` sends through `client` (a knex instance's `client`) that write or open a transaction: on
 * SQLite each holds the one connection uploads commit through, so background passes with nothing to do send none.
 */
export async function writesDuring(client: QueryEmitter, work: () => Promise<unknown>): Promise<string[]> {
  const writes: string[] = [];
  const record = ({ sql }: { sql: string }) => {
    if (/^\s*(insert|update|delete|replace|begin|savepoint|start transaction)\b/i.test(sql)) writes.push(sql);
  };
  client.on('query', record);
  try {
    await work();
  } finally {
    client.removeListener('query', record);
  }
  return writes;
}
