// The console's only script. The pages work without it; it keeps the parts marked data-live fresh:
// every few seconds, while the tab is visible, it fetches the same page and swaps in the newer copy
// of each live element (matched by id). Nothing else: no inline script, no other origin (CSP).
'use strict';

const REFRESH_MS = 5000;

async function refresh() {
  const live = document.querySelectorAll('[data-live][id]');
  if (live.length === 0 || document.hidden) return;
  const response = await fetch(window.location.href, { headers: { accept: 'text/html' }, credentials: 'same-origin', cache: 'no-store' });
  if (!response.ok || !(response.headers.get('content-type') || '').startsWith('text/html')) return;
  const fresh = new DOMParser().parseFromString(await response.text(), 'text/html');
  for (const element of live) {
    const next = fresh.getElementById(element.id);
    // Keep an open <details> open across a refresh.
    if (next) {
      for (const open of element.querySelectorAll('details[open][id]')) next.querySelector(`#${CSS.escape(open.id)}`)?.setAttribute('open', '');
      element.replaceWith(next);
    }
  }
  document.documentElement.dataset.refreshed = String(Date.now());
}

setInterval(() => {
  refresh().catch(() => undefined);
}, REFRESH_MS);
