import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Served by the reference server under /dashboard/; every asset is bundled, so the page needs no other origin.
// `npm run dev` serves it from Vite instead, sending the API calls on to AUDIT_API_URL: by default the Prism mock
// (`npm run mock`), or a running server (e.g. AUDIT_API_URL=http://127.0.0.1:8443 with --plain-http).
export default defineConfig({
  base: '/dashboard/',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, assetsInlineLimit: 0, sourcemap: false },
  server: { proxy: { '/api': { target: process.env.AUDIT_API_URL ?? 'http://127.0.0.1:4010', changeOrigin: true, secure: false } } },
});
