// The little of oidc-provider 8 (which ships no types) that the single sign-on test uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface Account {
    accountId: string;
    claims(): Promise<Record<string, unknown>>;
  }

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown> & { findAccount(context: unknown, id: string): Promise<Account> });
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
  }
}
