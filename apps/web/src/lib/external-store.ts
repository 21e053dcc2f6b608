/**
 * A tiny store that lives outside React (in the spirit of uppy's `useUppyState` and zustand):
 * state is replaced, never mutated, and components subscribe to a slice with `useStore`.
 *
 * Keep in mind:
 * - `setState` replaces the state at once, so code outside React always reads the latest value;
 * - listeners are told at most once per animation frame and five times a second (`notify: 'frame'`,
 *   lib/paced.ts), so a burst of progress updates (2,000 files) costs one render of the subscribed
 *   components per pace (200 ms), all paced stores in one task;
 * - a background tab runs no animation frames: a timer flushes too, so the page is up to date when
 *   the customer comes back and stores keep working where there is no `requestAnimationFrame`;
 * - a component re-renders only when its selected slice changes (`Object.is`, or the given equality).
 */
import { useCallback, useRef, useSyncExternalStore } from 'react';
import { paced } from './paced.ts';

export interface Store<S> {
  getState(): S;
  /** Replaces the state; returning the same object from the updater changes nothing. */
  setState(next: S | ((state: S) => S)): void;
  subscribe(listener: () => void): () => void;
}

export interface StoreOptions {
  /** 'frame': batch notifications to one per animation frame, at most ten a second; 'sync': tell listeners at once. */
  notify?: 'frame' | 'sync';
}

export function createStore<S>(initial: S, options: StoreOptions = {}): Store<S> {
  const mode = options.notify ?? 'frame';
  let state = initial;
  const listeners = new Set<() => void>();
  const flush = () => {
    for (const listener of listeners) listener();
  };
  const schedule = mode === 'sync' ? flush : paced(flush);

  return {
    getState: () => state,
    setState(next) {
      const value = typeof next === 'function' ? (next as (s: S) => S)(state) : next;
      if (Object.is(value, state)) return;
      state = value;
      schedule();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * The slice `selector` picks from the store; re-renders when that slice changes. The selector may
 * build a new object or array each time when `equal` says two results are the same (see `shallowEqual`).
 */
export function useStore<S, T>(store: Store<S>, selector: (state: S) => T, equal: (a: T, b: T) => boolean = Object.is): T {
  const cache = useRef<{ state: S; selector: (state: S) => T; value: T } | null>(null);
  const getSnapshot = () => {
    const state = store.getState();
    const last = cache.current;
    if (last && last.state === state && last.selector === selector) return last.value;
    const value = selector(state);
    if (last && equal(last.value, value)) {
      cache.current = { state, selector, value: last.value };
      return last.value;
    }
    cache.current = { state, selector, value };
    return value;
  };
  const subscribe = useCallback((listener: () => void) => store.subscribe(listener), [store]);
  return useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
}

/** Equal when both are arrays (or plain objects) holding the same items by `Object.is`. */
export function shallowEqual<T>(a: T, b: T): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => Object.is(item, b[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.is((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
