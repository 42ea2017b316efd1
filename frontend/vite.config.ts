import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { inlineReleaseGuard } from './tooling/inline-release-guard.ts';

/** The running backend the dev server proxies to (README start command: http://localhost:8080). */
const backend = process.env.CHANGEFLOW_BACKEND ?? 'http://localhost:8080';

export default defineConfig({
  plugins: [react(), inlineReleaseGuard()],
  build: {
    // Maven packages target/classes into the module jar: static/index.html, static/assets/<name>-<hash>.js|css
    outDir: 'target/classes/static',
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
  },
  server: {
    port: 5173,
    strictPort: true,
    // The server's prefixes; the app's own routes (/, /requests/..., /console/...) stay with the dev server,
    // as in production, where a page load under these prefixes never gets the app's page either.
    proxy: {
      '/api': { target: backend },
      '/sandbox': { target: backend },
      '/sim': { target: backend },
      '/actuator': { target: backend },
      '/ops': { target: backend },
    },
  },
  test: {
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}', 'tooling/**/*.test.ts'],
    restoreMocks: true,
    pool: 'threads',
    testTimeout: 10_000,
  },
});
