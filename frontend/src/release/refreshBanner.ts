/**
 * The "Refresh page" banner, drawn with plain DOM so it works even when the app bundle never
 * started (the guard may run from the inline early script). Stable test ids: refresh-banner,
 * refresh-page.
 */
export const REFRESH_BANNER_ID = 'cf-refresh-banner';

export function showRefreshBanner(doc: Document, onRefresh: () => void): void {
  const render = (): void => {
    if (doc.getElementById(REFRESH_BANNER_ID)) return;
    const banner = doc.createElement('div');
    banner.id = REFRESH_BANNER_ID;
    banner.className = 'refresh-banner';
    banner.setAttribute('role', 'alert');
    banner.setAttribute('data-testid', 'refresh-banner');
    // Inline styles: the app's stylesheet may be the asset that failed.
    banner.style.cssText =
      'position:sticky;top:0;z-index:1000;display:flex;flex-wrap:wrap;gap:.75rem;align-items:center;' +
      'padding:.75rem 1rem;background:#fff4d6;color:#3b2a00;border-bottom:2px solid #b78100;font:inherit';
    const text = doc.createElement('p');
    text.textContent =
      'Part of this page could not be loaded, probably because a new version was just released. Refresh the page to continue.';
    const button = doc.createElement('button');
    button.type = 'button';
    button.textContent = 'Refresh page';
    button.setAttribute('data-testid', 'refresh-page');
    button.addEventListener('click', () => onRefresh());
    banner.append(text, button);
    doc.body.prepend(banner);
    button.focus();
  };
  if (doc.body) render();
  else doc.addEventListener('DOMContentLoaded', render, { once: true });
}
