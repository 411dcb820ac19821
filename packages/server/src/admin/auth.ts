import type { Database } from '../database/dialect.js';
import { AdminTokenRecord } from '../database/entities.js';
import { ADMIN_TOKEN_PATTERN, hashAdminToken } from '../secrets/admin-tokens.js';

/** How often, at most, one server writes a token's last-use time: an admin request costs one read, not a write. */
const LAST_USED_WRITE_INTERVAL_MS = 60_000;

/**
 * Checks the bearer tokens of admin requests against the `admin_token` table: found by SHA-256 digest (so no
 * secret is compared byte by byte), refused once revoked. Every request reads the table, so a revocation counts
 * from the next request on, on every server.
 */
export class AdminTokenAuthenticator {
  /** When this process last wrote each token's last-use time (epoch ms). */
  #lastWritten = new Map<string, number>();

  constructor(
    private readonly database: Database,
    private readonly onWriteFailure: (error: unknown) => void = () => {},
  ) {}

  /** The id of the token an `Authorization` header carries, or undefined when it carries no valid token. */
  async authenticate(authorization: string | undefined): Promise<string | undefined> {
    const token = bearerToken(authorization);
    if (!token) return undefined;
    const em = this.database.em.fork();
    const record = await em.findOne(AdminTokenRecord, { tokenHash: hashAdminToken(token), revokedAt: null }, { fields: ['id'] });
    if (!record) return undefined;
    await this.#noteUse(record.id);
    return record.id;
  }

  /** Writes the last-use time at most once a minute per token; a failed write never fails the request. */
  async #noteUse(id: string): Promise<void> {
    const now = Date.now();
    if (now - (this.#lastWritten.get(id) ?? 0) < LAST_USED_WRITE_INTERVAL_MS) return;
    this.#lastWritten.set(id, now);
    const at = new Date(now);
    try {
      // Several servers may write: keep the latest time.
      await this.database.em.fork().nativeUpdate(AdminTokenRecord, { id, $or: [{ lastUsedAt: null }, { lastUsedAt: { $lt: at } }] }, { lastUsedAt: at });
    } catch (error) {
      this.onWriteFailure(error);
    }
  }
}

/** The token of an `Authorization: Bearer <token>` header (scheme case-insensitive), if it has an admin token's shape. */
export function bearerToken(authorization: string | undefined): string | undefined {
  const match = /^Bearer +(\S+) *$/i.exec(authorization ?? '');
  return match && ADMIN_TOKEN_PATTERN.test(match[1]!) ? match[1] : undefined;
}
