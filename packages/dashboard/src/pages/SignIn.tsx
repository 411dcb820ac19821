import { useState, type FormEvent } from 'react';

/** Asks for an admin token (made with `audit-server admin-tokens create`); it is kept for this tab only. */
export function SignIn({ notice, onSignIn }: { notice?: string; onSignIn(token: string): void }) {
  const [token, setToken] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (token.trim()) onSignIn(token.trim());
  };
  return (
    <main className="sign-in">
      <h1>Audit collector</h1>
      <form onSubmit={submit}>
        {notice && (
          <p role="alert" className="error">
            {notice}
          </p>
        )}
        <label htmlFor="admin-token">Admin token</label>
        <input id="admin-token" type="password" autoComplete="off" value={token} onChange={(event) => setToken(event.target.value)} placeholder="adm_…" />
        <p className="hint">
          Made on the server with <code>audit-server admin-tokens create</code>. It stays in this browser tab only, and signing out forgets it.
        </p>
        <button type="submit">Sign in</button>
      </form>
    </main>
  );
}
