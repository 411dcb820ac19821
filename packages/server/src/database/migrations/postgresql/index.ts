import type { MigrationObject } from '@mikro-orm/core';
import { InitialSchema } from './0001-initial-schema.js';
import { WriteProbe } from './0002-write-probe.js';
import { Rejections } from './0003-rejections.js';
import { ReportReceivedAtIndex } from './0004-report-received-at-index.js';
import { FleetView } from './0005-fleet-view.js';
import { Policies } from './0006-policies.js';
import { Webhooks } from './0007-webhooks.js';
import { CompactReports } from './0008-compact-reports.js';
import { ReportCompactionIndex } from './0009-report-compaction-index.js';
import { FleetCounts } from './0010-fleet-counts.js';
import { PolicyQuarantine } from './0012-policy-quarantine.js';
import { PolicyResultOrder } from './0011-policy-result-order.js';
import { HostIdentityAndQuotas } from './0013-host-identity-and-quotas.js';
import { WebhookDeliveryCap } from './0014-webhook-delivery-cap.js';
import { CaseInsensitiveHostFilters } from './0015-case-insensitive-host-filters.js';
import { WebhookDeliveryHost } from './0016-webhook-delivery-host.js';
import { AdminTokenRole } from './0017-admin-token-role.js';
import { Users } from './0018-users.js';
import { Sessions } from './0019-sessions.js';
import { PeopleOwnershipAndScope } from './0020-people-ownership-and-scope.js';
import { AuditTrail } from './0021-audit-trail.js';
import { SsoAttempts } from './0022-sso-attempts.js';
import { HostScopeIndex } from './0023-host-scope-index.js';
import { Enrollments } from './0024-enrollments.js';
import { HostLifecycle } from './0025-host-lifecycle.js';
import { FindingLifecycle } from './0026-finding-lifecycle.js';
import { PointInTime } from './0027-point-in-time.js';
import { Controls } from './0028-controls.js';
import { Digests } from './0029-digests.js';
import { TimeToFixIndexes } from './0030-time-to-fix-indexes.js';
import { TimeToFixSnapshot } from './0031-time-to-fix-snapshot.js';
import { ResolutionEpisodeStart } from './0032-resolution-episode-start.js';

/**
 * Every PostgreSQL schema migration, oldest first. PostgreSQL support came after SQLite's 0003, so its list starts
 * at that schema. Migrations are frozen history: they import nothing from the live code.
 */
export const POSTGRESQL_MIGRATIONS: MigrationObject[] = [
  { name: '0001-initial-schema', class: InitialSchema },
  { name: '0002-write-probe', class: WriteProbe },
  { name: '0003-rejections', class: Rejections },
  { name: '0004-report-received-at-index', class: ReportReceivedAtIndex },
  { name: '0005-fleet-view', class: FleetView },
  { name: '0006-policies', class: Policies },
  { name: '0007-webhooks', class: Webhooks },
  { name: '0008-compact-reports', class: CompactReports },
  { name: '0009-report-compaction-index', class: ReportCompactionIndex },
  { name: '0010-fleet-counts', class: FleetCounts },
  { name: '0011-policy-result-order', class: PolicyResultOrder },
  { name: '0012-policy-quarantine', class: PolicyQuarantine },
  { name: '0013-host-identity-and-quotas', class: HostIdentityAndQuotas },
  { name: '0014-webhook-delivery-cap', class: WebhookDeliveryCap },
  { name: '0015-case-insensitive-host-filters', class: CaseInsensitiveHostFilters },
  { name: '0016-webhook-delivery-host', class: WebhookDeliveryHost },
  { name: '0017-admin-token-role', class: AdminTokenRole },
  { name: '0018-users', class: Users },
  { name: '0019-sessions', class: Sessions },
  { name: '0020-people-ownership-and-scope', class: PeopleOwnershipAndScope },
  { name: '0021-audit-trail', class: AuditTrail },
  { name: '0022-sso-attempts', class: SsoAttempts },
  { name: '0023-host-scope-index', class: HostScopeIndex },
  { name: '0024-enrollments', class: Enrollments },
  { name: '0025-host-lifecycle', class: HostLifecycle },
  { name: '0026-finding-lifecycle', class: FindingLifecycle },
  { name: '0027-point-in-time', class: PointInTime },
  { name: '0028-controls', class: Controls },
  { name: '0029-digests', class: Digests },
  { name: '0030-time-to-fix-indexes', class: TimeToFixIndexes },
  { name: '0031-time-to-fix-snapshot', class: TimeToFixSnapshot },
  { name: '0032-resolution-episode-start', class: ResolutionEpisodeStart },
];
