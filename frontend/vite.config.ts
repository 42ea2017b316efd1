import react from '@vitejs/plugin-react';
import type { IncomingMessage } from 'node:http';
import { defineConfig } from 'vitest/config';
import { inlineReleaseGuard } from './tooling/inline-release-guard.ts';

/** The running backend the dev server proxies to (README start command: http://localhost:8080). */
const backend = process.env.CHANGEFLOW_BACKEND ?? 'http://localhost:8080';

/** A browser navigation to an app route (e.g. /ops/batches) gets the dev index.html, not the backend. */
function navigationBypass(req: IncomingMessage): string | undefined {
  const accept = req.headers.accept ?? '';
  return req.method === 'GET' && accept.includes('text/html') ? '/index.html' : undefined;
}

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
    proxy: {
      '/api': { target: backend },
      '/sandbox': { target: backend },
      '/sim': { target: backend },
      '/actuator': { target: backend },
      '/ops': { target: backend, bypass: navigationBypass },
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
