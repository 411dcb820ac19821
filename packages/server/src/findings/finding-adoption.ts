import type { Database, DatabaseTime } from '../database/dialect.js';
import type { HostFindingRecord } from '../database/entities.js';
import { sqlDialectOf } from '../database/dialects.js';
import type { RowOf } from '../database/rows.js';
import { lockHostsForLifecycle } from '../hosts/host-lifecycle.js';
import { writeTransitions } from './finding-records.js';
import { insertFindings, newFinding } from './finding-tracking.js';

/** Hosts adopted per transaction: short transactions, so that uploads never wait long behind one. */
const BATCH = 200;

type HeldRow = RowOf<HostFindingRecord> & { first_seen: DatabaseTime; last_seen: DatabaseTime };

/**
 * Gives the findings hosts held before the server kept lifecycles (`host_finding` rows without a `finding`) a
 * lifecycle: open since the host's first report, last seen at its newest, with no event (nothing happened to them
 * now). Batches of hosts by id, each a transaction that locks them, as uploads do (an upload that reaches a host
 * first adopts its findings itself, see `finding-tracking.ts`). Resolves with how many findings it adopted.
 */
export async function adoptUntrackedFindings(database: Database, stopped: () => boolean = () => false): Promise<number> {
  const knex = database.em.getKnex();
  const dialect = sqlDialectOf(database.em);
  let after: string | undefined;
  let adopted = 0;
  while (!stopped()) {
    const query = knex('host_finding as hf')
      .distinct('hf.host_record_id')
      .leftJoin('finding as f', function () {
        this.on('f.host_record_id', 'hf.host_record_id').andOn('f.kind', 'hf.kind').andOn('f.test_id', 'hf.test_id');
      })
      .whereNull('f.id')
      .orderBy('hf.host_record_id')
      .limit(BATCH);
    if (after !== undefined) query.andWhere('hf.host_record_id', '>', after);
    const hosts = ((await query) as { host_record_id: string }[]).map((row) => row.host_record_id);
    if (hosts.length === 0) break;
    after = hosts.at(-1)!;
    adopted += await knex.transaction(async (trx) => {
      await dialect.startWriting(trx);
      const locked = (await lockHostsForLifecycle(trx, dialect, hosts)).map((host) => host.id);
      const held = (await trx('host_finding as hf')
        .join('host as h', 'h.id', 'hf.host_record_id')
        .leftJoin('finding as f', function () {
          this.on('f.host_record_id', 'hf.host_record_id').andOn('f.kind', 'hf.kind').andOn('f.test_id', 'hf.test_id');
        })
        .select('hf.*', 'h.first_seen', 'h.last_seen')
        .whereIn('hf.host_record_id', locked)
        .whereNull('f.id')) as HeldRow[];
      const rows = held.map((row) => newFinding(row.host_record_id, row, 'open', row.first_seen, row.last_seen));
      await insertFindings(trx, rows);
      await writeTransitions(
        trx,
        rows.map((row) => ({ findingId: row.id, from: null, to: 'open', at: row.first_seen, actor: null, reason: null })),
      );
      return rows.length;
    });
  }
  return adopted;
}
