import { defineConfig } from '@hey-api/openapi-ts';

/** The client SDK: one function per operation, the fetch client and the types, generated from the contract. */
export default defineConfig({
  input: '../../openapi.yaml',
  output: { path: 'src/generated', indexFile: false },
  plugins: ['@hey-api/client-fetch', '@hey-api/sdk', '@hey-api/typescript'],
});
