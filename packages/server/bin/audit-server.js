#!/usr/bin/env node
// Committed entry point, so the bin link exists even before the TypeScript build has run.
import module from 'node:module';

// Node 22.1 and later keep compiled code between starts (most of a start is compiling modules); older ones lack it.
module.enableCompileCache?.();
await import('../dist/cli.js');
