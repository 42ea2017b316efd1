// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { bundleEarlyScript, escapeInlineScript, injectEarlyScript, MARKER } from './inline-release-guard.ts';

describe('inline release guard', () => {
  it('injects at the marker, or at the top of <head> without one', () => {
    expect(injectEarlyScript(`<head><meta charset="UTF-8">${MARKER}</head>`, 'go()')).toBe(
      '<head><meta charset="UTF-8"><script data-release-guard>go()</script></head>',
    );
    expect(injectEarlyScript('<html><head><title>x</title></head></html>', 'go()')).toContain('<head>\n    <script data-release-guard>go()</script><title>');
  });

  it('cannot close its own script element', () => {
    expect(escapeInlineScript('a="</script><b>";c="<!--"')).toBe('a="<\\/script><b>";c="<\\!--"');
  });

  it('bundles a self-contained script that installs the guard and reloads once on a failed asset', async () => {
    const code = await bundleEarlyScript(process.cwd());
    expect(code).not.toMatch(/^\s*(import|export)\s/m);

    const listeners: Array<{ type: string; fn: (e: unknown) => void; capture: unknown }> = [];
    const reloads: string[] = [];
    const store = new Map<string, string>();
    const fakeWindow: Record<string, unknown> = {
      location: { href: 'https://app.example/inbox', replace: (u: string) => reloads.push(u) },
      history: { state: null, replaceState: () => undefined },
      sessionStorage: { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => store.set(k, v) },
      document: {},
      addEventListener: (type: string, fn: (e: unknown) => void, capture: unknown) => listeners.push({ type, fn, capture }),
      removeEventListener: () => undefined,
    };
    new Function('window', code)(fakeWindow);

    expect(fakeWindow.__changeflowReleaseGuard).toBeDefined();
    const onError = listeners.find((l) => l.type === 'error');
    expect(onError?.capture).toBe(true);
    expect(listeners.some((l) => l.type === 'vite:preloadError')).toBe(true);
    onError?.fn({ target: { tagName: 'SCRIPT', src: 'https://app.example/assets/InboxPage-old.js' } });
    expect(reloads).toHaveLength(1);
    expect(reloads[0]).toMatch(/^https:\/\/app\.example\/inbox\?_r=\d+$/);
  });
});
