import { useSyncExternalStore } from 'react';

const QUERY = '(prefers-reduced-motion: reduce)';

function subscribe(onChange: () => void): () => void {
  if (typeof matchMedia !== 'function') return () => {};
  const list = matchMedia(QUERY);
  list.addEventListener('change', onChange);
  return () => list.removeEventListener('change', onChange);
}

const reduced = () => typeof matchMedia === 'function' && matchMedia(QUERY).matches;

/**
 * Whether the customer asked the system for less motion (WCAG 2.3.3). antd's zooms and slides are
 * turned off for them (app/providers.tsx): a dialog is there, ready for a click, the moment it opens.
 */
export function usePrefersReducedMotion(): boolean {
  return useSyncExternalStore(subscribe, reduced, () => false);
}
