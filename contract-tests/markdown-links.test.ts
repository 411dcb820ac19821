// The Markdown docs hold together: every relative link names a file of the repository, and every anchor
// (`#heading`) a heading of its file, slugged as GitHub slugs them. The README stays a short front page.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Every tracked Markdown file, as a path from the repository's root. */
const markdownFiles = execFileSync('git', ['ls-files', '*.md'], { cwd: ROOT, encoding: 'utf8' })
  .split('\n')
  .filter((file) => file && existsSync(resolve(ROOT, file)));

/** The text of a Markdown file without its fenced code blocks and inline code, where links and headings are not. */
function proseOf(file: string): string {
  return readFileSync(resolve(ROOT, file), 'utf8')
    .replace(/^ {0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?^ {0,3}\1[^\n]*$/gm, '')
    .replace(/(`+)(?!`)[\s\S]*?[^`]\1(?!`)/g, '``');
}

/** A heading's anchor as GitHub writes it: rendered text, lower case, punctuation dropped, spaces as hyphens. */
function githubSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link or image renders as its text
    .replace(/<[^>]+>/g, '') // inline HTML renders as nothing
    .replace(/[*_`]/g, (mark) => (mark === '_' ? '_' : '')) // emphasis and code marks render as nothing
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** The anchors of a Markdown file: one per heading (repeats get -1, -2 …), and explicit `<a id>` / `<a name>`. */
function anchorsOf(file: string): Set<string> {
  const source = readFileSync(resolve(ROOT, file), 'utf8');
  const prose = source.replace(/^ {0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?^ {0,3}\1[^\n]*$/gm, '');
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of prose.matchAll(/^ {0,3}#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const slug = githubSlug(heading!);
    const repeats = seen.get(slug) ?? 0;
    seen.set(slug, repeats + 1);
    anchors.add(repeats === 0 ? slug : `${slug}-${repeats}`);
  }
  for (const [, id] of prose.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(id!);
  return anchors;
}

/** Every link target of a Markdown file: inline links and images, and reference definitions. */
function linksOf(file: string): string[] {
  const prose = proseOf(file);
  const inline = [...prose.matchAll(/!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map(([, target]) => target!);
  const references = [...prose.matchAll(/^ {0,3}\[[^\]]+\]:\s+<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm)].map(([, target]) => target!);
  return [...inline, ...references];
}

/** What is wrong with one link of `file`, or nothing. */
function brokenLink(file: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined; // https:, mailto: … are not the repository's
  const hash = target.indexOf('#');
  const pathPart = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
  const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
  const linked = pathPart === '' ? resolve(ROOT, file) : resolve(ROOT, dirname(file), pathPart);
  const fromRoot = relative(ROOT, linked);
  if (fromRoot.startsWith('..')) return `${target}: leaves the repository`;
  if (!existsSync(linked)) return `${target}: no such file (${fromRoot})`;
  if (anchor === undefined || anchor === '' || !linked.endsWith('.md') || statSync(linked).isDirectory()) return undefined;
  return anchorsOf(fromRoot).has(anchor) ? undefined : `${target}: no heading "#${anchor}" in ${fromRoot}`;
}

describe('the Markdown docs', () => {
  it('are found', () => {
    expect(markdownFiles).toEqual(expect.arrayContaining(['README.md', 'CONTRIBUTING.md', 'docs/ARCHITECTURE.md']));
  });

  it('slug headings as GitHub does', () => {
    expect(githubSlug('Upload from scripts: `audit-client`')).toBe('upload-from-scripts-audit-client');
    expect(githubSlug('Compliance, alerts and exports')).toBe('compliance-alerts-and-exports');
    expect(githubSlug('Host identity: the shared-key trust model')).toBe('host-identity-the-shared-key-trust-model');
    expect(githubSlug('[The intake](x.md) at 100,000 hosts')).toBe('the-intake-at-100000-hosts');
  });

  it.each(markdownFiles)('%s: every relative link and anchor resolves', (file) => {
    const broken = linksOf(file).flatMap((target) => brokenLink(file, target) ?? []);
    expect(broken).toEqual([]);
  });

  it('keep the README a front page of at most 12 KB', () => {
    expect(statSync(resolve(ROOT, 'README.md')).size).toBeLessThanOrEqual(12 * 1024);
  });
});
