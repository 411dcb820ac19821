import { DomainError } from '../errors/domain-error.js';
import type { AdminHandlers } from './operation.js';

// Placeholder until digests land.
const notYet = async (): Promise<never> => {
  throw new DomainError('conflict', 'Not available yet');
};

export const digestRoutes = {
  listDigestSchedules: notYet,
  createDigestSchedule: notYet,
  deleteDigestSchedule: notYet,
  issueDigest: notYet,
  listDigests: notYet,
  getDigest: notYet,
  resendDigest: notYet,
} satisfies AdminHandlers<
  'listDigestSchedules' | 'createDigestSchedule' | 'deleteDigestSchedule' | 'issueDigest' | 'listDigests' | 'getDigest' | 'resendDigest'
>;
