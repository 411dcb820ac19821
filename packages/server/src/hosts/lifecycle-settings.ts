// When hosts go stale and expire: the server's stale threshold, system groups' own thresholds and expiries, and
// the auto-purge window of hosts whose newest report says `allow-auto-purge=1`.
import type { Knex } from '@mikro-orm/knex';
import { parseDuration } from '../duration.js';

/** Defaults: a week without a report is stale; a host that allows auto-purge is decommissioned after a day without one. */
export const DEFAULT_STALE_DAYS = 7;
export const DEFAULT_AUTO_PURGE_AFTER = '24h';

const DAY_MS = 86_400_000;

/** The settings the host lifecycle follows. Group names compare case-insensitively, as the host list's group filter does. */
export interface LifecycleSettings {
  staleDays: number;
  /** Stale thresholds of system groups, in days, by lowercased group name. */
  groupStaleDays: ReadonlyMap<string, number>;
  /** How long hosts of a system group may go without a report before they are decommissioned, by lowercased name. */
  groupExpireAfterMs: ReadonlyMap<string, number>;
  autoPurgeAfterMs: number;
  /** Each host's stale threshold in days: the largest of its groups' own, else the server's. */
  staleDaysOf(knex: Knex, ids: readonly string[]): Promise<Map<string, number>>;
}

/** The settings as given at start (`--stale-days`, `--group-stale-days`, `--group-expire-after`, `--auto-purge-after`). */
export function lifecycleSettings(given: { staleDays: number; groupStaleDays: string; groupExpireAfter: string; autoPurgeAfter: string }): LifecycleSettings {
  const groupStaleDays = parseGroupValues(given.groupStaleDays, parseDays);
  return {
    staleDays: given.staleDays,
    groupStaleDays,
    groupExpireAfterMs: parseGroupValues(given.groupExpireAfter, parseDuration),
    autoPurgeAfterMs: parseDuration(given.autoPurgeAfter),
    async staleDaysOf(knex, ids) {
      const days = new Map(ids.map((id) => [id, given.staleDays]));
      if (groupStaleDays.size === 0 || ids.length === 0) return days;
      const seen = new Set<string>();
      for (let start = 0; start < ids.length; start += 500) {
        const rows = (await knex('host_label')
          .select('host_record_id', 'value')
          .where('kind', 'group')
          .whereIn('host_record_id', ids.slice(start, start + 500))) as { host_record_id: string; value: string }[];
        for (const row of rows) {
          const own = groupStaleDays.get(row.value.toLowerCase());
          if (own === undefined) continue;
          // A host in several groups with thresholds of their own is stale by the most patient of them.
          days.set(row.host_record_id, seen.has(row.host_record_id) ? Math.max(days.get(row.host_record_id)!, own) : own);
          seen.add(row.host_record_id);
        }
      }
      return days;
    },
  };
}

/** The defaults, for servers and tests that set nothing. */
export const DEFAULT_LIFECYCLE: LifecycleSettings = lifecycleSettings({
  staleDays: DEFAULT_STALE_DAYS,
  groupStaleDays: '',
  groupExpireAfter: '',
  autoPurgeAfter: DEFAULT_AUTO_PURGE_AFTER,
});

/** A whole number of days, at least one. */
export function parseDays(text: string): number {
  const days = Number(text);
  if (!Number.isInteger(days) || days < 1 || days > 3650) throw new Error(`"${text}" is not a number of days from 1 to 3650`);
  return days;
}

/** `group=value` pairs separated by commas (`laptops=30,lab=2`), each value parsed; throws a readable message. */
export function parseGroupValues<T>(text: string, parse: (value: string) => T): Map<string, T> {
  const values = new Map<string, T>();
  for (const pair of text.split(',').map((part) => part.trim())) {
    if (pair === '') continue;
    const equals = pair.lastIndexOf('=');
    const group = pair.slice(0, Math.max(0, equals)).trim();
    if (equals < 0 || group === '') throw new Error(`"${pair}" is not group=value`);
    values.set(group.toLowerCase(), parse(pair.slice(equals + 1).trim()));
  }
  return values;
}

/** The shortest stale threshold, in milliseconds: a host unseen for less is stale by no threshold. */
export function shortestStaleMs(settings: LifecycleSettings): number {
  return Math.min(settings.staleDays * DAY_MS, ...[...settings.groupStaleDays.values()].map((days) => days * DAY_MS));
}
