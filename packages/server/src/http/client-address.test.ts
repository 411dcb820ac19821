import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { clientAddressResolver } from './client-address.js';

const request = (peer: string, forwardedFor?: string) =>
  ({
    socket: { remoteAddress: peer },
    headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
    connection: { remoteAddress: peer },
  }) as unknown as IncomingMessage;

describe('client address', () => {
  it('ignores X-Forwarded-For without --trust-proxy, and says so once, the first time a request carries it', () => {
    const warnings: string[] = [];
    const resolve = clientAddressResolver(undefined, (message) => warnings.push(message));
    expect(resolve(request('10.0.0.5'))).toBe('10.0.0.5');
    expect(warnings).toEqual([]);
    expect(resolve(request('10.0.0.5', '203.0.113.7'))).toBe('10.0.0.5');
    expect(resolve(request('10.0.0.5', '203.0.113.8'))).toBe('10.0.0.5');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/X-Forwarded-For.*--trust-proxy/);
    expect(warnings[0]).not.toContain('203.0.113');
  });

  it('takes the address a trusted proxy reports, without warning', () => {
    const warnings: string[] = [];
    const resolve = clientAddressResolver('10.0.0.5', (message) => warnings.push(message));
    expect(resolve(request('10.0.0.5', '203.0.113.7'))).toBe('203.0.113.7');
    expect(resolve(request('10.0.0.6', '203.0.113.7'))).toBe('10.0.0.6');
    expect(warnings).toEqual([]);
  });
});
