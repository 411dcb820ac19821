// The hosts an operator ticked in the hosts list, for bulk actions: some hosts by id (on any page of the same
// filters), or every host matching the filters, however many pages they fill.
import type { HostFilterValues, HostSelection as SelectedHosts } from '@org/audit-client/sdk';

/** Most hosts a selection by id may hold: what the contract's `ids` takes (the export's query and bulk bodies). */
export const MAX_SELECTED_IDS = 500;

/** Hosts ticked by id, or (`allMatching`) every host the filters match. */
export type Selection = { allMatching: false; ids: readonly string[] } | { allMatching: true };

/** Nothing selected. */
export const NO_SELECTION: Selection = { allMatching: false, ids: [] };

/** Whether the host with this id is selected. */
export function isSelected(selection: Selection, id: string): boolean {
  return selection.allMatching || selection.ids.includes(id);
}

/** How many hosts are selected, given how many match the filters. */
export function selectedCount(selection: Selection, matching: number): number {
  return selection.allMatching ? matching : selection.ids.length;
}

/**
 * Ticks or unticks one host of the page shown (`pageIds`). Unticking one while every matching host is selected
 * leaves the other hosts of the page selected: the hosts of the other pages were never seen one by one.
 */
export function toggleHost(selection: Selection, id: string, pageIds: readonly string[]): Selection {
  if (selection.allMatching) return { allMatching: false, ids: pageIds.filter((other) => other !== id) };
  if (selection.ids.includes(id)) return { allMatching: false, ids: selection.ids.filter((other) => other !== id) };
  return { allMatching: false, ids: [...selection.ids, id] };
}

/** How much of the page shown is selected: for the heading's checkbox (ticked, part-ticked, or not). */
export function pageSelection(selection: Selection, pageIds: readonly string[]): 'all' | 'some' | 'none' {
  const ticked = pageIds.filter((id) => isSelected(selection, id)).length;
  return ticked === 0 ? 'none' : ticked === pageIds.length ? 'all' : 'some';
}

/** The heading's checkbox: ticks every host of the page, or, when all of it is ticked, unticks them (and any "all matching"). */
export function togglePage(selection: Selection, pageIds: readonly string[]): Selection {
  if (pageSelection(selection, pageIds) === 'all') {
    return selection.allMatching ? NO_SELECTION : { allMatching: false, ids: selection.ids.filter((id) => !pageIds.includes(id)) };
  }
  const ids = selection.allMatching ? [] : selection.ids;
  return { allMatching: false, ids: [...ids, ...pageIds.filter((id) => !ids.includes(id))] };
}

/** The hosts a bulk request names: the ids ticked, or the filters of the list when every matching host is selected. */
export function selectedHosts(selection: Selection, filters: HostFilterValues): SelectedHosts {
  return selection.allMatching ? { filters } : { ids: [...selection.ids] };
}

/** "421 waivers created", and how many hosts were selected when that is another number. */
export function waiversCreatedMessage(created: number, hosts: number): string {
  const waivers = created === 1 ? '1 waiver created' : `${created.toLocaleString('en')} waivers created`;
  return created === hosts ? waivers : `${waivers} for ${hosts.toLocaleString('en')} selected hosts`;
}
