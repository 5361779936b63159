import type { VersionJson } from '../api';

/** "25 Nov 2026, 01:50 by staff member 42": when in the merchant's locale, and who. */
export function versionByline(version: Pick<VersionJson, 'at' | 'user'>): string {
  const when = new Date(version.at).toLocaleString(undefined, {
    dateStyle: 'medium',
    timeStyle: 'short',
  });
  return version.user ? `${when} by staff member ${version.user}` : when;
}

const EVENTS: Record<VersionJson['event'], string> = {
  save: 'Saved',
  restore: 'Restored',
  rename: 'Renamed',
  enable: 'Enabled',
  disable: 'Disabled',
};

export const eventLabel = (event: VersionJson['event']) => EVENTS[event] ?? event;
