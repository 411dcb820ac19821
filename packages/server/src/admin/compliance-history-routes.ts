import { DomainError } from '../errors/domain-error.js';
import type { AdminHandlers } from './operation.js';

// Placeholder until the compliance history lands.
const notYet = async (): Promise<never> => {
  throw new DomainError('conflict', 'Not available yet');
};

export const complianceHistoryRoutes = {
  getComplianceHistory: notYet,
  exportComplianceHistory: notYet,
} satisfies AdminHandlers<'getComplianceHistory' | 'exportComplianceHistory'>;
