import { importControlFile } from '../controls/control-records.js';
import { controlReport } from '../controls/control-report.js';
import { DomainError } from '../errors/domain-error.js';
import type { AdminHandlers } from './operation.js';

export const controlRoutes = {
  listControls: async ({ query, actor }, { database }) => ({ status: 200, body: await controlReport(database, actor.scope, query.framework) }),

  importControls: async ({ body, audit }, { database }) => {
    // The adapter hands a `text/csv` body over as its text; anything else was refused before (415).
    if (typeof body !== 'string') throw new DomainError('invalid', 'Send the mapping file as the body, as text/csv');
    const imported = await importControlFile(database, body);
    audit.target = { type: 'control-mapping', id: imported.frameworks.join(',') };
    audit.changes = { frameworks: { before: null, after: imported.frameworks }, controls: { before: null, after: imported.controls } };
    return { status: 200, body: imported };
  },
} satisfies AdminHandlers<'listControls' | 'importControls'>;
