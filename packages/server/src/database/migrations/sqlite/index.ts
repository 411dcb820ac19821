import type { MigrationObject } from '@mikro-orm/core';
import { InitialSchema } from './0001-initial-schema.js';
import { KeyLifecycle } from './0002-key-lifecycle.js';
import { HostsAndSummaries } from './0003-hosts-and-summaries.js';
import { WriteProbe } from './0004-write-probe.js';
import { Rejections } from './0005-rejections.js';
import { ReportReceivedAtIndex } from './0006-report-received-at-index.js';
import { FleetView } from './0007-fleet-view.js';
import { Policies } from './0008-policies.js';
import { Webhooks } from './0009-webhooks.js';
import { CompactReports } from './0010-compact-reports.js';
import { ReportCompactionIndex } from './0011-report-compaction-index.js';
import { FleetCounts } from './0012-fleet-counts.js';
import { PolicyQuarantine } from './0014-policy-quarantine.js';
import { PolicyResultOrder } from './0013-policy-result-order.js';
import { HostIdentityAndQuotas } from './0015-host-identity-and-quotas.js';
import { WebhookDeliveryCap } from './0016-webhook-delivery-cap.js';
import { CaseInsensitiveHostFilters } from './0017-case-insensitive-host-filters.js';
import { WebhookDeliveryHost } from './0018-webhook-delivery-host.js';
import { AdminTokenRole } from './0019-admin-token-role.js';
import { Users } from './0020-users.js';
import { Sessions } from './0021-sessions.js';
import { PeopleOwnershipAndScope } from './0022-people-ownership-and-scope.js';
import { AuditTrail } from './0023-audit-trail.js';
import { SsoAttempts } from './0024-sso-attempts.js';
import { HostScopeIndex } from './0025-host-scope-index.js';
import { Enrollments } from './0026-enrollments.js';
import { HostLifecycle } from './0027-host-lifecycle.js';
import { FindingLifecycle } from './0028-finding-lifecycle.js';
import { PointInTime } from './0029-point-in-time.js';
import { Controls } from './0030-controls.js';
import { Digests } from './0031-digests.js';
import { TimeToFixIndexes } from './0032-time-to-fix-indexes.js';
import { TimeToFixSnapshot } from './0033-time-to-fix-snapshot.js';
import { ResolutionEpisodeStart } from './0034-resolution-episode-start.js';

/**
 * Every SQLite schema migration, oldest first, listed so that they run from compiled output without file globbing.
 * Migrations are frozen history: they import nothing from the live code, which may change after them.
 */
export const SQLITE_MIGRATIONS: MigrationObject[] = [
  { name: '0001-initial-schema', class: InitialSchema },
  { name: '0002-key-lifecycle', class: KeyLifecycle },
  { name: '0003-hosts-and-summaries', class: HostsAndSummaries },
  { name: '0004-write-probe', class: WriteProbe },
  { name: '0005-rejections', class: Rejections },
  { name: '0006-report-received-at-index', class: ReportReceivedAtIndex },
  { name: '0007-fleet-view', class: FleetView },
  { name: '0008-policies', class: Policies },
  { name: '0009-webhooks', class: Webhooks },
  { name: '0010-compact-reports', class: CompactReports },
  { name: '0011-report-compaction-index', class: ReportCompactionIndex },
  { name: '0012-fleet-counts', class: FleetCounts },
  { name: '0013-policy-result-order', class: PolicyResultOrder },
  { name: '0014-policy-quarantine', class: PolicyQuarantine },
  { name: '0015-host-identity-and-quotas', class: HostIdentityAndQuotas },
  { name: '0016-webhook-delivery-cap', class: WebhookDeliveryCap },
  { name: '0017-case-insensitive-host-filters', class: CaseInsensitiveHostFilters },
  { name: '0018-webhook-delivery-host', class: WebhookDeliveryHost },
  { name: '0019-admin-token-role', class: AdminTokenRole },
  { name: '0020-users', class: Users },
  { name: '0021-sessions', class: Sessions },
  { name: '0022-people-ownership-and-scope', class: PeopleOwnershipAndScope },
  { name: '0023-audit-trail', class: AuditTrail },
  { name: '0024-sso-attempts', class: SsoAttempts },
  { name: '0025-host-scope-index', class: HostScopeIndex },
  { name: '0026-enrollments', class: Enrollments },
  { name: '0027-host-lifecycle', class: HostLifecycle },
  { name: '0028-finding-lifecycle', class: FindingLifecycle },
  { name: '0029-point-in-time', class: PointInTime },
  { name: '0030-controls', class: Controls },
  { name: '0031-digests', class: Digests },
  { name: '0032-time-to-fix-indexes', class: TimeToFixIndexes },
  { name: '0033-time-to-fix-snapshot', class: TimeToFixSnapshot },
  { name: '0034-resolution-episode-start', class: ResolutionEpisodeStart },
];
