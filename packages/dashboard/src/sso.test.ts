import { describe, expect, it } from 'vitest';
import { ssoErrorMessage, takeSsoError } from './sso.js';

/** The address bar and history of a page opened at `url`, as `takeSsoError` reads and rewrites them. */
function page(url: string) {
  const at = new URL(url);
  const replaced: string[] = [];
  const location = { pathname: at.pathname, search: at.search, hash: at.hash } as Location;
  const history = { state: null, replaceState: (_state: unknown, _unused: string, next: string) => void replaced.push(next) } as unknown as History;
  return { location, history, replaced };
}

describe('single sign-on on the sign-in page', () => {
  it('explains each reason the server sends the browser back with', () => {
    expect(ssoErrorMessage('state')).toBe('The sign-in was interrupted or tampered with; try again.');
    expect(ssoErrorMessage('no_role')).toContain('gives you no role here');
    expect(ssoErrorMessage('disabled')).toContain('disabled');
    expect(ssoErrorMessage('provider')).toContain('identity provider refused');
    expect(ssoErrorMessage('unreachable')).toContain('could not be reached');
    expect(ssoErrorMessage('<img src=x>')).toBe('Single sign-on did not complete; try again.');
  });

  it('takes the reason out of the address, keeping the rest', () => {
    const failed = page('https://audit.example.org/dashboard/?sso_error=state&x=1#/hosts');
    expect(takeSsoError(failed.location, failed.history)).toBe('The sign-in was interrupted or tampered with; try again.');
    expect(failed.replaced).toEqual(['/dashboard/?x=1#/hosts']);
    const plain = page('https://audit.example.org/dashboard/');
    expect(takeSsoError(plain.location, plain.history)).toBeUndefined();
    expect(plain.replaced).toEqual([]);
  });
});
