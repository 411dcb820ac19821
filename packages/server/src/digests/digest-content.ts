// A digest's figures, read once when it is issued and frozen: compliance now and at the period's start, the
// period's regressions, the oldest open findings, and the accepted risks (findings and waivers) expiring soon.
import type { Knex } from '@mikro-orm/knex';
import { complianceHistory } from '../compliance/compliance-history.js';
import type { Database } from '../database/dialect.js';
import { sqlDialectOf } from '../database/dialects.js';
import { filteredFindings } from '../findings/finding-queries.js';
import type { CompliancePoint, FindingKind, DigestContent, DigestExpiringWaiver, DigestFinding, DigestScope } from '../generated/types.gen.js';
import { scopedHostIds } from '../hosts/host-scope.js';
import { UNSCOPED } from '../people/scope.js';
import { accessScopeOf } from './digest-records.js';
import type { DigestPeriod } from './digest-periods.js';

const DAY_MS = 86_400_000;
/** Accepted risks expiring this many days after the digest is issued are listed. */
export const EXPIRING_WITHIN_DAYS = 14;
/** The longest lists of regressions and of open findings. */
const TOP = 10;
const STILL_OPEN = ['open', 'acknowledged', 'regressed'] as const;

/** What a digest reads beyond its scope and period. */
export interface DigestReading {
  /** Leave out Lynis' own findings (`--lynis-own-findings hide`), as the fleet's lists do. */
  hideLynis: boolean;
  /** When it is issued: accepted risks expiring within 14 days of this are listed. */
  now: Date;
}

/** The figures of a digest of `scope` over `period`. */
export async function digestContent(database: Database, scope: DigestScope, period: DigestPeriod, reading: DigestReading): Promise<DigestContent> {
  const [compliance, topRegressions, oldestOpen, expiringAcceptances, expiringWaivers] = await Promise.all([
    complianceOver(database, scope, period, reading.now),
    regressionsIn(database, scope, period, reading),
    oldestOpenFindings(database, scope, reading),
    acceptancesExpiring(database, scope, reading),
    waiversExpiring(database, scope, reading.now),
  ]);
  return { compliance, topRegressions, oldestOpen, expiringAcceptances, expiringWaivers };
}

/** A day as the compliance history names it: `YYYY-MM-DD` (UTC). */
const dayOf = (time: Date) => time.toISOString().slice(0, 10);

/**
 * Compliance at the period's end (the history's last point) and at its start (its first point: the day before the
 * period, as of that day's end), and the change in points. `before` is null when that point counts no host.
 */
async function complianceOver(database: Database, scope: DigestScope, period: DigestPeriod, now: Date): Promise<DigestContent['compliance']> {
  const history = await complianceHistory(
    database,
    UNSCOPED,
    {
      from: dayOf(new Date(period.start.getTime() - DAY_MS)),
      // The period ends at midnight (or now, issued on demand): its last day is the one before that instant.
      to: dayOf(new Date(period.end.getTime() - 1)),
      interval: 'day',
      group: scope.group ?? undefined,
      customer: scope.customer ?? undefined,
    },
    now,
    { todayAsOfNow: true },
  );
  const points = history.points;
  const last = points.at(-1)!;
  // A first point that counts no host at all has no figures to compare with (the hosts reported later).
  const first = points.length > 1 && hostCount(points[0]!) > 0 ? points[0]! : null;
  const change =
    first && first.compliancePercent !== null && last.compliancePercent !== null
      ? Math.round((last.compliancePercent - first.compliancePercent) * 10) / 10
      : null;
  return { now: last, before: first, changePoints: change };
}

const hostCount = (point: CompliancePoint) => point.hosts.compliant + point.hosts.noncompliant + point.hosts.accepted + point.hosts.unknown;

/** A finding row with its host's name, as the lists below read them. */
interface FindingListRow {
  id: string;
  host_record_id: string;
  hostname: string | null;
  kind: string;
  test_id: string;
  text: string;
  at: Date | number | string;
}

const toDigestFinding = (row: FindingListRow): DigestFinding => ({
  findingId: row.id,
  hostRecordId: row.host_record_id,
  hostname: row.hostname,
  kind: row.kind as FindingKind,
  testId: row.test_id,
  text: row.text,
  at: new Date(row.at).toISOString(),
});

/** The scope's findings (`f`, hosts `h`) as the fleet's lists count them, selecting a digest finding's columns and `at`. */
function findingsOf(database: Database, scope: DigestScope, reading: DigestReading, at: string): Knex.QueryBuilder {
  return filteredFindings(database, accessScopeOf(scope), { hideLynis: reading.hideLynis })
    .clearSelect()
    .select('f.id', 'f.host_record_id', 'h.hostname', 'f.kind', 'f.test_id', 'f.text', { at });
}

/** The findings that regressed during the period (seen again after being resolved), warnings first, the latest first. */
async function regressionsIn(database: Database, scope: DigestScope, period: DigestPeriod, reading: DigestReading): Promise<DigestFinding[]> {
  const knex = database.em.getKnex();
  const dialect = sqlDialectOf(database.em);
  const regressed = knex('finding_transition')
    .select('finding_id')
    .max({ regressed_at: 'at' })
    .where('to_state', 'regressed')
    .where('at', '>=', dialect.toDatabaseTime(period.start))
    .where('at', '<', dialect.toDatabaseTime(period.end))
    .groupBy('finding_id')
    .as('r');
  const query = findingsOf(database, scope, reading, 'r.regressed_at')
    .join(regressed, 'r.finding_id', 'f.id')
    .orderBy([{ column: 'f.kind', order: 'desc' }, { column: 'r.regressed_at', order: 'desc' }, { column: 'f.id' }])
    .limit(TOP);
  return ((await query) as FindingListRow[]).map(toDigestFinding);
}

/** The findings still to handle that were first seen longest ago; of those first seen together (one report), warnings first. */
async function oldestOpenFindings(database: Database, scope: DigestScope, reading: DigestReading): Promise<DigestFinding[]> {
  const query = findingsOf(database, scope, reading, 'f.first_seen')
    .whereIn('f.state', STILL_OPEN)
    .orderBy([{ column: 'f.first_seen' }, { column: 'f.kind', order: 'desc' }, { column: 'f.test_id' }, { column: 'f.id' }])
    .limit(TOP);
  return ((await query) as FindingListRow[]).map(toDigestFinding);
}

/** The findings whose accepted risk runs out within 14 days, the soonest first. */
async function acceptancesExpiring(database: Database, scope: DigestScope, reading: DigestReading): Promise<DigestFinding[]> {
  const dialect = sqlDialectOf(database.em);
  const query = findingsOf(database, scope, reading, 'f.accept_expires_at')
    .where('f.state', 'accepted')
    .where('f.accept_expires_at', '<=', dialect.toDatabaseTime(new Date(reading.now.getTime() + EXPIRING_WITHIN_DAYS * DAY_MS)))
    .orderBy([{ column: 'f.accept_expires_at' }, { column: 'f.id' }]);
  return ((await query) as FindingListRow[]).map(toDigestFinding);
}

/**
 * The waivers in force that run out within 14 days, the soonest first: a group's digest lists the waivers of its
 * hosts and of the group itself, a customer's those of its hosts, the fleet's every one.
 */
async function waiversExpiring(database: Database, scope: DigestScope, now: Date): Promise<DigestExpiringWaiver[]> {
  const knex = database.em.getKnex();
  const dialect = sqlDialectOf(database.em);
  const query = knex('waiver as w')
    .join('policy as p', 'p.id', 'w.policy_id')
    .leftJoin('host as h', 'h.id', 'w.host_record_id')
    .select('w.id', 'p.name as policy_name', 'w.rule_id', 'w.group_name', 'h.hostname', 'w.host_record_id', 'w.expires_at')
    .where('w.expires_at', '>', dialect.toDatabaseTime(now))
    .where('w.expires_at', '<=', dialect.toDatabaseTime(new Date(now.getTime() + EXPIRING_WITHIN_DAYS * DAY_MS)))
    .orderBy([{ column: 'w.expires_at' }, { column: 'w.id' }]);
  const hosts = scopedHostIds(knex, accessScopeOf(scope));
  if (hosts) {
    query.where((covered) => {
      covered.whereIn('w.host_record_id', hosts);
      if (scope.group) covered.orWhereRaw('lower(w.group_name) = lower(?)', [scope.group]);
    });
  }
  const rows = (await query) as {
    id: string;
    policy_name: string;
    rule_id: string | null;
    group_name: string | null;
    hostname: string | null;
    host_record_id: string | null;
    expires_at: Date | number | string;
  }[];
  return rows.map((row) => ({
    waiverId: row.id,
    policyName: row.policy_name,
    ruleId: row.rule_id,
    target: row.group_name ?? row.hostname ?? row.host_record_id ?? '',
    expiresAt: new Date(row.expires_at).toISOString(),
  }));
}
