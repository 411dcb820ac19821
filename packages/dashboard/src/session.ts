// The admin token lives in this tab's session only: sessionStorage is per tab and gone when the tab closes.
const TOKEN_KEY = 'audit-admin-token';

/** The token this tab signed in with, if any. */
export const storedToken = (): string | undefined => sessionStorage.getItem(TOKEN_KEY) ?? undefined;

/** Keeps the token for this tab. */
export const storeToken = (token: string): void => sessionStorage.setItem(TOKEN_KEY, token);

/** Forgets the token (sign-out, or a token the server refused). */
export const forgetToken = (): void => sessionStorage.removeItem(TOKEN_KEY);
