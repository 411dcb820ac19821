import { createRequire } from 'node:module';

/**
 * Loads a CommonJS package with `require`, for those a start needs. Imported from an ES module, a CommonJS module
 * and every module it re-exports is first scanned by Node for its export names: for MikroORM's packages, which
 * re-export hundreds of modules, that took about a quarter of a start. Required, they are only run.
 */
export const requireCommonJs = createRequire(import.meta.url);
