import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Served by the reference server under /dashboard/; every asset is bundled, so the page needs no other origin.
export default defineConfig({
  base: '/dashboard/',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, assetsInlineLimit: 0, sourcemap: false },
});
