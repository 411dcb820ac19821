import { scopeText } from '../people/user-commands.js';
import type { AdminTokenSummary } from './admin-tokens.js';

/** The columns of `admin-tokens list`. */
export const ADMIN_TOKEN_LIST_HEADER = ['ID', 'KIND', 'OWNER/ACCOUNT', 'LABEL', 'ROLE', 'SCOPE', 'PREFIX', 'CREATED', 'LAST USED', 'EXPIRES', 'REVOKED'];

/** The rows of `admin-tokens list`, one per token (never the token itself). */
export const adminTokenListRows = (tokens: AdminTokenSummary[]): string[][] =>
  tokens.map((token) => [
    token.id,
    token.kind,
    (token.kind === 'personal' ? token.owner?.email : token.serviceAccount) ?? '-',
    token.label ?? '-',
    token.role,
    scopeText(token.scope),
    `${token.prefix}…`,
    token.createdAt.toISOString(),
    token.lastUsedAt?.toISOString() ?? 'never',
    token.expiresAt?.toISOString() ?? 'never',
    token.revokedAt?.toISOString() ?? '-',
  ]);
