import { describe, expect, it } from 'vitest';
import {
  isSelected,
  NO_SELECTION,
  pageSelection,
  selectedCount,
  selectedHosts,
  toggleHost,
  togglePage,
  waiversCreatedMessage,
  type Selection,
} from './host-selection.js';

const PAGE = ['a', 'b', 'c'];

describe('selecting hosts of the list', () => {
  it('ticks and unticks hosts one by one, kept across pages', () => {
    let selection = toggleHost(NO_SELECTION, 'a', PAGE);
    selection = toggleHost(selection, 'x', ['x', 'y']); // another page
    expect(selection).toEqual({ allMatching: false, ids: ['a', 'x'] });
    expect(selectedCount(selection, 421)).toBe(2);
    expect(pageSelection(selection, PAGE)).toBe('some');
    selection = toggleHost(selection, 'a', PAGE);
    expect(selection).toEqual({ allMatching: false, ids: ['x'] });
    expect(pageSelection(selection, PAGE)).toBe('none');
  });

  it("ticks the whole page from the heading, then unticks it, leaving other pages' hosts", () => {
    const other: Selection = { allMatching: false, ids: ['x', 'b'] };
    const page = togglePage(other, PAGE);
    expect(page).toEqual({ allMatching: false, ids: ['x', 'b', 'a', 'c'] });
    expect(pageSelection(page, PAGE)).toBe('all');
    expect(togglePage(page, PAGE)).toEqual({ allMatching: false, ids: ['x'] });
  });

  it('selects every host matching the filters, counted as the list counts them', () => {
    const all: Selection = { allMatching: true };
    expect(selectedCount(all, 421)).toBe(421);
    expect(isSelected(all, 'anyone')).toBe(true);
    expect(pageSelection(all, PAGE)).toBe('all');
    // Unticking one keeps the rest of the page shown; unticking the page drops everything.
    expect(toggleHost(all, 'b', PAGE)).toEqual({ allMatching: false, ids: ['a', 'c'] });
    expect(togglePage(all, PAGE)).toEqual(NO_SELECTION);
  });

  it('names the hosts of a bulk request by id, or by the filters when all matching are selected', () => {
    const filters = { group: 'webservers', compliance: 'noncompliant' } as const;
    expect(selectedHosts({ allMatching: false, ids: ['a', 'b'] }, filters)).toEqual({ ids: ['a', 'b'] });
    expect(selectedHosts({ allMatching: true }, filters)).toEqual({ filters });
  });

  it('announces how many waivers were created, and how many hosts were selected when that differs', () => {
    expect(waiversCreatedMessage(421, 421)).toBe('421 waivers created');
    expect(waiversCreatedMessage(1, 1)).toBe('1 waiver created');
    expect(waiversCreatedMessage(1200, 1300)).toBe('1,200 waivers created for 1,300 selected hosts');
  });
});
