import { describe, expect, it } from 'vitest';
import { fileNameOf } from './download.js';

describe('the file name of a content-disposition', () => {
  it.each<[string | null, string | undefined]>([
    ['attachment; filename="hosts.csv"', 'hosts.csv'],
    ['attachment; filename=findings.json', 'findings.json'],
    ['attachment; filename="host-0f8fad5b-history.csv"; size=10', 'host-0f8fad5b-history.csv'],
    ['attachment; filename="a \\"quoted\\" name.csv"', 'a "quoted" name.csv'],
    ['attachment; filename="plain.csv"; filename*=UTF-8\'\'h%C3%B4tes.csv', 'hôtes.csv'],
    ['attachment; filename="plain.csv"; filename*=UTF-8\'\'%E0%A4%A', 'plain.csv'],
    ['attachment; filename="../../etc/passwd"', 'passwd'],
    ['attachment', undefined],
    ['attachment; filename=""', undefined],
    [null, undefined],
  ])('%j names %j', (header, name) => {
    expect(fileNameOf(header)).toBe(name);
  });
});
