import type { AdminHandler, AdminHandlers } from './operation.js';

// Placeholder while the operations are built: answers 500 until replaced.
const notBuilt = (): never => {
  throw new Error('not built yet');
};

const listEnrollments: AdminHandler<'listEnrollments'> = async () => notBuilt();
const createEnrollment: AdminHandler<'createEnrollment'> = async () => notBuilt();
const revokeEnrollment: AdminHandler<'revokeEnrollment'> = async () => notBuilt();

export const enrollmentRoutes = { listEnrollments, createEnrollment, revokeEnrollment } satisfies AdminHandlers<
  'listEnrollments' | 'createEnrollment' | 'revokeEnrollment'
>;
