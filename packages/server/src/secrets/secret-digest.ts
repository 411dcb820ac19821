import { createHash } from 'node:crypto';

/**
 * SHA-256 (hex) of a random secret (a token, a session's or a sign-in attempt's id): the only form in which the
 * database keeps one, so that a copy of it lets no one in. Secrets carry 256 random bits, so no salt is needed.
 */
export const secretDigest = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');
