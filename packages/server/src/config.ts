import { DEFAULT_MAX_BODY_BYTES, TOOL_SEGMENT_PATTERN } from '@org/audit-server-core';
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
    maxBodyBytes: z.coerce.number().int().min(1024).default(DEFAULT_MAX_BODY_BYTES),
    logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  })
  .refine((c) => Boolean(c.tlsCert) === Boolean(c.tlsKey), { message: 'give both a TLS certificate and its key, or neither' })
  .refine((c) => !(c.plainHttp && c.tlsCert), { message: 'plain HTTP and a TLS certificate exclude each other' });

/** Validated server configuration. */
export type ServerConfig = z.infer<typeof ServerConfigSchema>;

/** Validates raw settings (flags, environment) into a {@link ServerConfig}, or throws one readable message. */
export function parseServerConfig(raw: Record<string, unknown>): ServerConfig {
  const result = ServerConfigSchema.safeParse(raw);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `${issue.path.join('.') || 'config'}: ${issue.message}`);
  throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
}
