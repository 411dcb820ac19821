import { describe, expect, it } from 'vitest';
import { lynisApiUrl, parseApiUrl, parseServerUrl } from './api-url.js';

describe('parseApiUrl', () => {
  it.each([
    ['https://collector:8443/api/audit', { baseUrl: 'https://collector:8443', toolSegment: 'audit', legacyPaths: false }],
    ['https://collector:8443/api/v1/audit/', { baseUrl: 'https://collector:8443', toolSegment: 'audit', legacyPaths: true }],
    ['http://127.0.0.1:4010/collector/api/lynis', { baseUrl: 'http://127.0.0.1:4010/collector', toolSegment: 'lynis', legacyPaths: false }],
    [lynisApiUrl('127.0.0.1:8443/api/v1/audit'), { baseUrl: 'https://127.0.0.1:8443', toolSegment: 'audit', legacyPaths: true }],
  ])('%s', (url, expected) => {
    expect(parseApiUrl(url)).toEqual(expected);
  });

  it.each(['https://collector:8443', 'https://collector/api/', 'ftp://collector/api/audit', 'collector:8443/api/audit', 'not a url'])(
    'refuses %s with a message saying what is expected',
    (url) => {
      expect(() => parseApiUrl(url)).toThrow(/\/api\/<tool>|Not a|Not an http/);
    },
  );
});

describe('parseServerUrl', () => {
  it.each([
    ['https://collector:8443', 'https://collector:8443'],
    ['https://collector:8443/', 'https://collector:8443'],
    ['https://collector:8443/api/audit', 'https://collector:8443'],
    ['https://collector:8443/api/v1/lynis/', 'https://collector:8443'],
    ['http://127.0.0.1:4010/collector/', 'http://127.0.0.1:4010/collector'],
    ['http://127.0.0.1:4010/collector/api/audit', 'http://127.0.0.1:4010/collector'],
  ])('%s is the server at %s', (url, baseUrl) => {
    expect(parseServerUrl(url)).toBe(baseUrl);
  });

  it.each(['ftp://collector', 'collector:8443', 'https://collector/?x=1', 'not a url'])('refuses %s', (url) => {
    expect(() => parseServerUrl(url)).toThrow(/Not a|Not an http|query or fragment/);
  });
});
