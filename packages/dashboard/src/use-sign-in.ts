import { useEffect, useMemo, useState } from 'react';
import type { Client } from '@org/audit-client/sdk';
import { adminClient } from './api.js';
import { cookieSession, forgetToken, signInWithPassword, signOutOfSession, storeToken, storedToken } from './session.js';

/**
 * How this tab is signed in: with an admin token it keeps, with the server's session cookie, not at all, or not yet
 * known (while the cookie is checked on load).
 */
type SignedIn = { token: string } | { cookie: true } | 'none' | 'checking';

/** The tab's sign-in: its state, the client it gives (none until signed in), and the ways in and out. */
export function useSignIn() {
  const [signedIn, setSignedIn] = useState<SignedIn>(() => {
    const token = storedToken();
    return token ? { token } : 'checking';
  });
  const [notice, setNotice] = useState<string>();
  // After a token's sign-out (or refusal) the token form opens again, as that is how this tab signs in.
  const [tokenFirst, setTokenFirst] = useState(false);
  useEffect(() => {
    if (signedIn !== 'checking') return;
    cookieSession().then(
      (found) => setSignedIn(found ? { cookie: true } : 'none'),
      () => setSignedIn('none'),
    );
  }, [signedIn]);
  // One client per sign-in, not one per render.
  const client: Client | undefined = useMemo(
    () => (typeof signedIn === 'object' ? adminClient('token' in signedIn ? signedIn.token : undefined) : undefined),
    [signedIn],
  );
  const byCookie = typeof signedIn === 'object' && 'cookie' in signedIn;
  const signedInAs = (next: SignedIn) => {
    setSignedIn(next);
    setNotice(undefined);
  };
  return {
    checking: signedIn === 'checking',
    client,
    byCookie,
    notice,
    tokenFirst,
    signOut(message?: string) {
      if (byCookie) void signOutOfSession();
      forgetToken();
      setTokenFirst(!byCookie);
      setSignedIn('none');
      setNotice(message);
    },
    async passwordSignIn(email: string, password: string): Promise<string | undefined> {
      const failure = await signInWithPassword(email, password);
      if (!failure) signedInAs({ cookie: true });
      return failure;
    },
    tokenSignIn(token: string) {
      storeToken(token);
      signedInAs({ token });
    },
  };
}
