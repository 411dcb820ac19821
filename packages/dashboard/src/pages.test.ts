import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROUTES } from './route.js';

/**
 * `pages.tsx` finds each route's component by the name its `ROUTES` entry gives, so the compiler cannot check that it
 * is there: this test does, reading the page files as text (no React, no browser). A page's component is a function
 * declaration, as every page's is.
 */
const PAGES_DIR = new URL('pages/', import.meta.url);
const pageFiles = readdirSync(PAGES_DIR).filter((file) => file.endsWith('Page.tsx'));

describe('pages', () => {
  it.each(Object.entries(ROUTES).map(([route, entry]) => [route, entry.page]))('route %s has pages/%s.tsx, exporting it', (_, page) => {
    expect(pageFiles).toContain(`${page}.tsx`);
    expect(readFileSync(new URL(`${page}.tsx`, PAGES_DIR), 'utf8')).toMatch(new RegExp(`^export function ${page}\\b`, 'm'));
  });

  it('shows every page file under exactly one route', () => {
    const pagesOfRoutes = Object.values(ROUTES).map((entry) => `${entry.page}.tsx`);
    expect(pagesOfRoutes.toSorted()).toEqual(pageFiles.toSorted());
  });
});
