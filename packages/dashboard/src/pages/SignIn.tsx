import { useEffect, useState, type FormEvent } from 'react';
import type { SignInOptions } from '@org/audit-client/sdk';
import { SSO_START_PATH, signInOptions, takeSsoError } from '../sso.js';

interface SignInProps {
  notice?: string;
  /** Opens the token form at once: the tab last signed in with a token. */
  tokenFirst?: boolean;
  /** Signs in with email and password: answers what to tell the person when it failed. */
  onPasswordSignIn(email: string, password: string): Promise<string | undefined>;
  onTokenSignIn(token: string): void;
}

/**
 * Asks for an email and password (an account made with `audit-server users add`); an admin token (made with
 * `audit-server admin-tokens create`, kept for this tab only) is the other way in, behind a disclosure. When the
 * server has single sign-on, "Sign in with …" comes first; why it failed, when the server sent the browser back
 * with `?sso_error=…`, is said at the top.
 */
export function SignIn({ notice, tokenFirst, onPasswordSignIn, onTokenSignIn }: SignInProps) {
  const [failure, setFailure] = useState<string>();
  const [ssoFailure] = useState(takeSsoError);
  const shown = failure ?? notice;
  return (
    <main className="sign-in">
      <h1>Audit collector</h1>
      {ssoFailure && (
        <p role="alert" className="error sso-error">
          {ssoFailure}
        </p>
      )}
      <SsoSignIn />
      <PasswordForm notice={shown} onSignIn={onPasswordSignIn} onFailure={setFailure} />
      <details className="token-sign-in" open={tokenFirst}>
        <summary>Use an admin token instead</summary>
        <TokenForm onSignIn={onTokenSignIn} />
      </details>
      <details className="first-use">
        <summary>First time here?</summary>
        <p className="hint">
          An admin adds people on the People page. On a new server, create the first admin on the server itself (the password is read from stdin, never from the
          command line): <code>audit-server users add --email you@example.org --role admin --password-stdin</code>
        </p>
      </details>
    </main>
  );
}

/** "Sign in with <provider>": a plain link, as the browser must go to the server, which sends it on to the provider. */
function SsoSignIn() {
  const [sso, setSso] = useState<SignInOptions['sso']>();
  useEffect(() => {
    let current = true;
    signInOptions().then(
      (options) => current && setSso(options),
      () => current && setSso(undefined),
    );
    return () => {
      current = false;
    };
  }, []);
  if (!sso?.enabled) return null;
  return (
    <div className="sso-sign-in">
      <a className="button" href={SSO_START_PATH}>
        Sign in with {sso.label ?? 'SSO'}
      </a>
      <p className="hint">or with your email and password:</p>
    </div>
  );
}

function PasswordForm({
  notice,
  onSignIn,
  onFailure,
}: {
  notice?: string;
  onSignIn: SignInProps['onPasswordSignIn'];
  onFailure(message: string | undefined): void;
}) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!email.trim() || !password || busy) return;
    setBusy(true);
    onSignIn(email.trim(), password).then(
      (failure) => {
        setBusy(false);
        setPassword('');
        onFailure(failure);
      },
      () => {
        setBusy(false);
        onFailure('Could not reach the server.');
      },
    );
  };
  return (
    <form onSubmit={submit}>
      {notice && (
        <p role="alert" className="error">
          {notice}
        </p>
      )}
      <label htmlFor="sign-in-email">Email</label>
      <input id="sign-in-email" type="email" autoComplete="username" value={email} onChange={(event) => setEmail(event.target.value)} required />
      <label htmlFor="sign-in-password">Password</label>
      <input
        id="sign-in-password"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        required
      />
      <button type="submit" disabled={busy}>
        Sign in
      </button>
    </form>
  );
}

function TokenForm({ onSignIn }: { onSignIn(token: string): void }) {
  const [token, setToken] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (token.trim()) onSignIn(token.trim());
  };
  return (
    <form onSubmit={submit}>
      <label htmlFor="admin-token">Admin token</label>
      <input id="admin-token" type="password" autoComplete="off" value={token} onChange={(event) => setToken(event.target.value)} placeholder="adm_…" />
      <p className="hint">
        Made on the server with <code>audit-server admin-tokens create</code>. It stays in this browser tab only, and signing out forgets it.
      </p>
      <button type="submit">Sign in with token</button>
    </form>
  );
}
