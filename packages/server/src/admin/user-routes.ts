import type { AdminHandler, AdminHandlers } from './operation.js';

// Placeholder while the operations are built: answers 500 until replaced.
const notBuilt = (): never => {
  throw new Error('not built yet');
};

const listUsers: AdminHandler<'listUsers'> = async () => notBuilt();
const createUser: AdminHandler<'createUser'> = async () => notBuilt();
const updateUser: AdminHandler<'updateUser'> = async () => notBuilt();
const deleteUser: AdminHandler<'deleteUser'> = async () => notBuilt();

export const userRoutes = { listUsers, createUser, updateUser, deleteUser } satisfies AdminHandlers<'listUsers' | 'createUser' | 'updateUser' | 'deleteUser'>;
