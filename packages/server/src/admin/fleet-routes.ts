import { findingGroups } from '../fleet/finding-groups.js';
import { fleetOverview } from '../fleet/overview.js';
import { asOfMoment } from './as-of.js';
import type { AdminHandler, AdminHandlers } from './operation.js';

/** `GET /api/admin/overview`: the fleet at a glance, now or as of `at` (`staleDays` is deprecated: hosts' states say which are stale). */
const getOverview: AdminHandler<'getOverview'> = async ({ query, actor }, { database, lifecycle, hideLynisFindings }) => ({
  status: 200,
  body: await fleetOverview(database, actor.scope, { staleDays: lifecycle.staleDays, hideLynisFindings }, asOfMoment(query.at)),
});

/** `GET /api/admin/findings`: one page of the findings of every host's newest report, grouped by kind and test id. */
const listFindings: AdminHandler<'listFindings'> = async ({ query, actor }, { database, hideLynisFindings }) => ({
  status: 200,
  body: await findingGroups(database, actor.scope, query, { hideLynis: hideLynisFindings }),
});

export const fleetRoutes = { getOverview, listFindings } satisfies AdminHandlers<'getOverview' | 'listFindings'>;
