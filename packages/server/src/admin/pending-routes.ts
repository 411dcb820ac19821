// Operations of the contract whose handlers are being written: each answers 501 until its subject's routes
// module takes it over (and removes it here). This file goes once it is empty.
import { DomainError } from '../errors/domain-error.js';
import type { AdminHandler, AdminHandlers } from './operation.js';

const pending: AdminHandler<never> = () => Promise.reject(new DomainError('invalid', 'not implemented yet'));

export const pendingRoutes = {
  listFacets: pending,
  createWaivers: pending,
} as unknown as AdminHandlers<'listFacets' | 'createWaivers'>;
