import { DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_FIELDS, DEFAULT_MAX_UPLOADS_IN_FLIGHT, TOOL_SEGMENT_PATTERN } from '@org/audit-server-core';
import { z } from 'zod';

/** Everything the reference server can be told, with its defaults. Parsed once at start. */
export const ServerConfigSchema = z
  .object({
    dataDir: z.string().min(1).default('data'),
    host: z.string().min(1).default('0.0.0.0'),
    port: z.coerce.number().int().min(0).max(65535).default(8443),
    tlsCert: z.string().min(1).optional(),
    tlsKey: z.string().min(1).optional(),
    plainHttp: z.boolean().default(false),
    toolSegment: z
      .string()
      .regex(TOOL_SEGMENT_PATTERN, 'must be one URL path segment, e.g. audit or lynis')
      .default('audit'),
    // Resource limits (see the README for why each default).
    maxBodyBytes: z.coerce.number().int().min(1024).default(DEFAULT_MAX_BODY_BYTES),
    maxFields: z.coerce.number().int().min(4).default(DEFAULT_MAX_FIELDS),
    maxUploadsInFlight: z.coerce.number().int().min(1).default(DEFAULT_MAX_UPLOADS_IN_FLIGHT),
    headersTimeoutMs: z.coerce.number().int().min(1000).default(20_000),
    requestTimeoutMs: z.coerce.number().int().min(1000).default(120_000),
    // Rate limits; 0 turns one off.
    rateLimitAddress: z.coerce.number().int().min(0).default(1200),
    rateLimitKey: z.coerce.number().int().min(0).default(6000),
    rateLimitFailures: z.coerce.number().int().min(0).default(30),
    redisUrl: z.string().regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL').optional(),
    redisPrefix: z.string().min(1).default('audit-rate-limit'),
    trustProxy: z
      .string()
      .regex(/^(\d+|[0-9a-fA-F:.\/]+(,\s*[0-9a-fA-F:.\/]+)*|loopback|linklocal|uniquelocal)$/, 'must be a hop count, proxy addresses or subnets, or loopback, linklocal or uniquelocal')
      .optional(),
    logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  })
  .refine((c) => Boolean(c.tlsCert) === Boolean(c.tlsKey), { message: 'give both a TLS certificate and its key, or neither' })
  .refine((c) => !(c.plainHttp && c.tlsCert), { message: 'plain HTTP and a TLS certificate exclude each other' })
  .refine((c) => c.headersTimeoutMs <= c.requestTimeoutMs, { message: 'the headers timeout cannot be longer than the request timeout' });

/** Validated server configuration. */
export type ServerConfig = z.infer<typeof ServerConfigSchema>;

/** Validates raw settings (flags, environment) into a {@link ServerConfig}, or throws one readable message. */
export function parseServerConfig(raw: Record<string, unknown>): ServerConfig {
  const result = ServerConfigSchema.safeParse(raw);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `${issue.path.join('.') || 'config'}: ${issue.message}`);
  throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
}
