#!/usr/bin/env node
// Committed entry point, so the bin link exists even before the TypeScript build has run.
import '../dist/cli.js';
