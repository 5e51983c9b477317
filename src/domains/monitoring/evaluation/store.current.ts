import type { MonitoringStore } from './store';
import { platformStore } from './store.platform';

/**
 * The store every evaluation path reads when its caller names none: the platform's tables by
 * default. A process that keeps the engine's synchronised copy (the engine component) installs its
 * own store once at start with useMonitoringStore; nothing else changes.
 */
let current: MonitoringStore | undefined;

export function useMonitoringStore(store: MonitoringStore | undefined): void {
  current = store;
}

export const monitoringStore = (): MonitoringStore => current ?? platformStore;
