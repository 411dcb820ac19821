#!/usr/bin/env node
// Produces every generated file from openapi.yaml: core's types and contract module, the server's types and list of
// admin operations, the client's SDK (whose fetch client hey-api emits into `client/` and `core/` subfolders).
//   node scripts/generate.mjs          writes them into each package's src/generated/
//   node scripts/generate.mjs --check  generates into a temporary folder and fails if the committed files differ
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');
/** Packages whose src/generated/ comes from openapi.yaml, each with its own openapi-ts.config.ts (the server's holds the admin types). */
const packages = ['packages/core', 'packages/server', 'packages/client'];

const HEADER = '// This file is generated from openapi.yaml by scripts/generate.mjs. Do not edit.';
const readContract = () => parse(readFileSync(join(root, 'openapi.yaml'), 'utf8'));

/** The contract as a module, so core needs no YAML parser or file access at run time. */
function writeSpecModule(outDir) {
  const source = [
    HEADER,
    "import type { Document } from 'openapi-backend';",
    '',
    // Asserted rather than annotated: the contract's own extensions (`x-required-role`) are no properties the type knows.
    `export const openApiDocument = ${JSON.stringify(readContract(), null, 2)} as Document;`,
    '',
  ];
  writeFileSync(join(outDir, 'openapi.gen.ts'), source.join('\n'));
}

/** `node` with every local `$ref` followed (`#/components/...`), as the admin API's validator sees it. */
function resolveRef(document, node) {
  let resolved = node;
  for (let hops = 0; resolved?.$ref !== undefined; hops++) {
    if (hops > 32 || !resolved.$ref.startsWith('#/')) throw new Error(`Cannot resolve ${resolved.$ref}`);
    const keys = resolved.$ref
      .slice(2)
      .split('/')
      .map((key) => key.replaceAll('~1', '/').replaceAll('~0', '~'));
    resolved = keys.reduce((parent, key) => parent?.[key], document);
  }
  return resolved;
}

/**
 * The fields validation fills in: the query parameters and top-level JSON body properties with a `default` (the
 * validator fills defaults in, so a handler always has them).
 */
function defaultedFields(document, pathItem, operation) {
  const parameters = [...(pathItem.parameters ?? []), ...(operation.parameters ?? [])].map((parameter) => resolveRef(document, parameter));
  const query = parameters.filter((parameter) => parameter.in === 'query' && resolveRef(document, parameter.schema)?.default !== undefined);
  const body = resolveRef(document, resolveRef(document, operation.requestBody)?.content?.['application/json']?.schema);
  const properties = Object.entries(body?.properties ?? {}).filter(([, schema]) => resolveRef(document, schema)?.default !== undefined);
  return [...new Set([...query.map((parameter) => parameter.name), ...properties.map(([name]) => name)])];
}

/** Whether the operation has a 2xx answer: hey-api types those only. */
const hasSuccess = (operation) => Object.keys(operation.responses ?? {}).some((status) => /^2/.test(status));

/**
 * Whether a success of the operation is no plain JSON body: another media type (a stream, stored text), headers of
 * its own, or a redirect (single sign-on's steps).
 */
function isRaw(document, operation) {
  const successes = Object.entries(operation.responses ?? {})
    .filter(([status]) => /^[23]/.test(status))
    .map(([, response]) => resolveRef(document, response));
  return successes.some(
    (response) => Object.keys(response.content ?? {}).some((type) => type !== 'application/json') || Object.keys(response.headers ?? {}).length > 0,
  );
}

/** The admin roles, lowest first: the contract's `AdminRole` enum, in which each role includes the ones before it. */
const adminRoles = (document) => document.components.schemas.AdminRole.enum;

/** The `x-required-role` of the operations anyone may call (signing in and out): they must also have `security: []`. */
const NO_ROLE = 'none';

/**
 * An admin operation's `x-required-role`: every one must name a role, so that none is allowed by default, or say
 * `none` together with an empty `security`, so that needing no identity is stated twice and never by omission.
 */
function requiredRole(document, operation, method, path) {
  const role = operation['x-required-role'];
  const roles = adminRoles(document);
  if (role === NO_ROLE && Array.isArray(operation.security) && operation.security.length === 0) return role;
  if (!roles.includes(role))
    throw new Error(`${method.toUpperCase()} ${path} needs an x-required-role of ${roles.join(', ')} (or ${NO_ROLE} with security: [])`);
  return role;
}

/** The roles and each admin operation's required role as TypeScript source, for the server and the dashboard. */
function adminRolesSource(document) {
  const roles = [];
  for (const [path, pathItem] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(pathItem)) {
      if (operation?.tags?.includes('admin')) roles.push(`  ${operation.operationId}: '${requiredRole(document, operation, method, path)}',`);
    }
  }
  return [
    '/** The admin roles, lowest first: each includes what the ones before it may do. */',
    `export const ADMIN_ROLES = ${JSON.stringify(adminRoles(document)).replaceAll('"', "'").replaceAll(',', ', ')} as const;`,
    '',
    `/** The role each admin operation requires (its \`x-required-role\`); \`${NO_ROLE}\` for those anyone may call. */`,
    'export const ADMIN_OPERATION_ROLES = {',
    ...roles,
    `} as const satisfies Record<string, (typeof ADMIN_ROLES)[number] | '${NO_ROLE}'>;`,
    '',
  ];
}

/** The client's copy of the roles table: the dashboard offers only what the signed-in role may do. */
function writeAdminRoles(outDir) {
  writeFileSync(join(outDir, 'admin-roles.gen.ts'), [HEADER, '', ...adminRolesSource(readContract())].join('\n'));
}

/**
 * The server's list of admin operations (those tagged `admin`), by operationId: their generated request and answer
 * types, the fields the contract defaults, whether the success is raw, and the role each requires; the admin API's types (admin/operation.ts)
 * are built on it, so a new admin operation needs no hand-written line.
 */
function writeAdminOperations(outDir) {
  const document = readContract();
  const lines = [];
  for (const [path, pathItem] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(pathItem)) {
      if (!operation?.tags?.includes('admin')) continue;
      const typeName = operation.operationId.charAt(0).toUpperCase() + operation.operationId.slice(1); // as hey-api names it
      const defaulted = defaultedFields(document, pathItem, operation).map((name) => `'${name}'`);
      lines.push(
        `  /** \`${method.toUpperCase()} ${path}\` */`,
        `  ${operation.operationId}: {`,
        `    data: Contract.${typeName}Data;`,
        // hey-api types 2xx answers only; a redirect-only operation (single sign-on's steps) has none.
        `    responses: ${hasSuccess(operation) ? `Contract.${typeName}Responses` : 'Record<never, never>'};`,
        `    defaulted: ${defaulted.length > 0 ? defaulted.join(' | ') : 'never'};`,
        `    raw: ${isRaw(document, operation)};`,
        '  };',
      );
    }
  }
  const source = [
    HEADER,
    "import type * as Contract from './types.gen.js';",
    '',
    '/**',
    ' * Every operation tagged `admin`, by operationId: `data` and `responses`, its generated request and answers;',
    ' * `defaulted`, the query and JSON body fields the contract gives a default; `raw`, true when a success is not',
    ' * `application/json` or declares headers.',
    ' */',
    'export interface AdminOperations {',
    ...lines,
    '}',
    '',
    ...adminRolesSource(document),
  ];
  writeFileSync(join(outDir, 'admin-operations.gen.ts'), source.join('\n'));
}

function generateInto(pkg, outDir) {
  mkdirSync(outDir, { recursive: true });
  execFileSync(join(root, 'node_modules/.bin/openapi-ts'), ['-f', 'openapi-ts.config.ts', '-o', outDir, '-s'], {
    cwd: join(root, pkg),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  rmSync(join(outDir, 'index.ts'), { force: true }); // -o brings back the index file the config turns off
  if (pkg === 'packages/core') writeSpecModule(outDir);
  if (pkg === 'packages/server') writeAdminOperations(outDir);
  if (pkg === 'packages/client') writeAdminRoles(outDir);
}

/** Every file below `dir`, as sorted relative paths: a stale or missing file counts as drift too. */
const genFiles = (dir) =>
  existsSync(dir)
    ? readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
        .sort()
    : [];

let drift = [];
for (const pkg of packages) {
  const committed = join(root, pkg, 'src/generated');
  if (!check) {
    rmSync(committed, { recursive: true, force: true }); // everything in it is generated; nothing stale survives
    generateInto(pkg, committed);
    continue;
  }
  const scratch = mkdtempSync(join(tmpdir(), 'audit-generate-'));
  try {
    generateInto(pkg, scratch);
    const expected = genFiles(scratch);
    const actual = genFiles(committed);
    for (const file of new Set([...expected, ...actual])) {
      const want = expected.includes(file) ? readFileSync(join(scratch, file), 'utf8') : undefined;
      const have = actual.includes(file) ? readFileSync(join(committed, file), 'utf8') : undefined;
      if (want !== have) drift.push(join(pkg, 'src/generated', file));
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (drift.length > 0) {
  console.error(`Generated files differ from what openapi.yaml produces:\n  ${drift.join('\n  ')}\nRun: npm run generate`);
  process.exit(1);
}
console.log(check ? 'Generated files match openapi.yaml.' : 'Generated files written.');
