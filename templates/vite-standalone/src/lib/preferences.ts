import type { PipelineSdk } from 'pipeline-tool/bridge';

/*
 * The open tab and the page size, kept with settings.get and settings.set (SDK 2.3.0 and later):
 * browser storage is not dependable in the host's sandbox. Preferences make the tool nicer; they
 * never stop it from starting.
 */

export type ListName = 'customers' | 'jobs' | 'quotes';
export type TabName = ListName | 'new-quote';

export interface Preferences {
  tab: TabName;
  pageSize: number;
}

export const TABS: readonly TabName[] = ['customers', 'jobs', 'quotes', 'new-quote'];
export const PAGE_SIZES: readonly number[] = [5, 10, 25, 50];
export const DEFAULT_PREFERENCES: Preferences = { tab: 'customers', pageSize: 10 };
const KEY = 'preferences';

/** The saved preferences, or the defaults when there are none or the host is older than SDK 2.3.0. */
export async function loadPreferences(bridge: PipelineSdk): Promise<Preferences> {
  if (typeof bridge.settings?.get !== 'function') return { ...DEFAULT_PREFERENCES };
  try {
    return readPreferences(await bridge.settings.get(KEY));
  } catch {
    return { ...DEFAULT_PREFERENCES };
  }
}

/** What is stored may come from an older version of this tool, so each field is checked. */
export function readPreferences(stored: unknown): Preferences {
  const value = typeof stored === 'object' && stored !== null ? (stored as Record<string, unknown>) : {};
  const tab = TABS.find((name) => name === value['tab']) ?? DEFAULT_PREFERENCES.tab;
  const pageSize = PAGE_SIZES.find((size) => size === value['pageSize']) ?? DEFAULT_PREFERENCES.pageSize;
  return { tab, pageSize };
}

export function savePreferences(bridge: PipelineSdk, preferences: Preferences): void {
  if (typeof bridge.settings?.set !== 'function') return;
  bridge.settings.set(KEY, { ...preferences }).catch(() => {
    // Losing a preference is harmless; interrupting the user about it is not.
  });
}
