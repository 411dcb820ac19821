#!/usr/bin/env node
// Produces every generated file from openapi.yaml: core's types and contract module, the client's SDK (whose fetch
// client hey-api emits into `client/` and `core/` subfolders).
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

/** The contract as a module, so core needs no YAML parser or file access at run time. */
function writeSpecModule(outDir) {
  const document = parse(readFileSync(join(root, 'openapi.yaml'), 'utf8'));
  const source = [
    '// This file is generated from openapi.yaml by scripts/generate.mjs. Do not edit.',
    "import type { Document } from 'openapi-backend';",
    '',
    `export const openApiDocument: Document = ${JSON.stringify(document, null, 2)};`,
    '',
  ].join('\n');
  writeFileSync(join(outDir, 'openapi.gen.ts'), source);
}

function generateInto(pkg, outDir) {
  mkdirSync(outDir, { recursive: true });
  execFileSync(join(root, 'node_modules/.bin/openapi-ts'), ['-f', 'openapi-ts.config.ts', '-o', outDir, '-s'], {
    cwd: join(root, pkg),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  rmSync(join(outDir, 'index.ts'), { force: true }); // -o brings back the index file the config turns off
  if (pkg === 'packages/core') writeSpecModule(outDir);
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
