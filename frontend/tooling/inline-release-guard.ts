import { resolve } from 'node:path';
import { build, type Plugin } from 'vite';

const ENTRY = 'src/release/early.ts';

/** Bundles src/release/early.ts (the release guard) into one self-contained IIFE. */
export async function bundleEarlyScript(root: string): Promise<string> {
  const result = await build({
    configFile: false,
    root,
    logLevel: 'warn',
    publicDir: false,
    build: {
      write: false,
      minify: true,
      emptyOutDir: false,
      copyPublicDir: false,
      lib: { entry: resolve(root, ENTRY), formats: ['iife'], name: 'changeflowReleaseGuard' },
    },
  });
  const outputs = Array.isArray(result) ? result : [result];
  for (const out of outputs) {
    if (out && typeof out === 'object' && 'output' in out) {
      const chunk = out.output.find((o) => o.type === 'chunk');
      if (chunk && chunk.type === 'chunk') return chunk.code;
    }
  }
  throw new Error(`inline-release-guard: bundling ${ENTRY} produced no chunk`);
}

/** Safe inside <script>: no "</script" (or "<!--") can close or confuse the element. */
export function escapeInlineScript(code: string): string {
  return code.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
}

/** Where index.html wants the script: right after the charset and viewport meta tags. */
export const MARKER = '<!-- release-guard -->';

/** Replaces the marker with the inline script; without a marker, the script opens <head>. */
export function injectEarlyScript(html: string, code: string): string {
  const tag = `<script data-release-guard>${code}</script>`;
  if (html.includes(MARKER)) return html.replace(MARKER, () => tag);
  return html.replace(/<head([^>]*)>/i, (m) => `${m}\n    ${tag}`);
}

/**
 * Puts the release guard inline at the top of <head>, so it listens for script and stylesheet load
 * errors before the entry chunk itself is requested (a page whose entry chunk is gone recovers too).
 */
export function inlineReleaseGuard(): Plugin {
  let root = process.cwd();
  let cached: Promise<string> | null = null;
  return {
    name: 'changeflow:inline-release-guard',
    configResolved(config) {
      root = config.root;
    },
    transformIndexHtml: {
      order: 'pre',
      async handler(html) {
        cached ??= bundleEarlyScript(root);
        return injectEarlyScript(html, escapeInlineScript(await cached));
      },
    },
  };
}
