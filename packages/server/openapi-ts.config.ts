import { defineConfig } from '@hey-api/openapi-ts';

/** Request and response types of the admin operations (and the contract's enums), generated from the contract. */
export default defineConfig({
  input: '../../openapi.yaml',
  output: { path: 'src/generated', indexFile: false },
  plugins: ['@hey-api/typescript'],
});
