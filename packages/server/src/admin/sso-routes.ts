import type { AdminHandler, AdminHandlers } from './operation.js';

// Placeholder while the operations are built: answers 500 until replaced.
const notBuilt = (): never => {
  throw new Error('not built yet');
};

const getSignInOptions: AdminHandler<'getSignInOptions'> = async () => notBuilt();
const startSsoSignIn: AdminHandler<'startSsoSignIn'> = async () => notBuilt();
const finishSsoSignIn: AdminHandler<'finishSsoSignIn'> = async () => notBuilt();

export const ssoRoutes = { getSignInOptions, startSsoSignIn, finishSsoSignIn } satisfies AdminHandlers<
  'getSignInOptions' | 'startSsoSignIn' | 'finishSsoSignIn'
>;
