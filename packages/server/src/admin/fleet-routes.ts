import { findingGroups, type FindingGroupQuery } from '../fleet/finding-groups.js';
import { fleetOverview } from '../fleet/overview.js';
import type { AdminOperation } from './operation.js';
import { jsonResponse } from './responses.js';

/** `GET /api/admin/overview`: the fleet at a glance. */
export const getOverview: AdminOperation = async ({ query }, { database }) => jsonResponse(200, await fleetOverview(database, query['staleDays'] as number));

/** `GET /api/admin/findings`: one page of the findings of every host's newest report, grouped by kind and test id. */
export const listFindings: AdminOperation = async ({ query }, { database }) =>
  jsonResponse(200, await findingGroups(database, query as unknown as FindingGroupQuery));
