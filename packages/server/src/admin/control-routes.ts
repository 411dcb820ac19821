import { DomainError } from '../errors/domain-error.js';
import type { AdminHandlers } from './operation.js';

// Placeholder until control mapping lands.
const notYet = async (): Promise<never> => {
  throw new DomainError('conflict', 'Not available yet');
};

export const controlRoutes = {
  listControls: notYet,
  importControls: notYet,
} satisfies AdminHandlers<'listControls' | 'importControls'>;
