import type { AdminHandlers } from './operation.js';

/** The finding lifecycle's operations (being built). */
const notYet = async (): Promise<never> => {
  throw new Error('not built yet');
};

export const findingRoutes = {
  listHostFindings: notYet,
  listTrackedFindings: notYet,
  updateFinding: notYet,
} satisfies AdminHandlers<'listHostFindings' | 'listTrackedFindings' | 'updateFinding'>;
