/**
 * Fitting a markdown report into a number of characters, for both reports. A document is parts in
 * order of importance: fixed text, and listings (table rows, diffs) that are cut to what fits, each
 * followed by a note on what was left out. Room for those notes is kept back before anything is
 * cut, so the bound holds whatever the content.
 */
import { code } from './markdown.js';

/** Entries that may be cut, shown in order; each entry carries its own line ends. */
export interface Listing {
  /** Shown whenever the listing is: a heading. */
  title: string;
  /** Around the entries, when any is shown: a table's header, a `<details>`. */
  open: string;
  close: string;
  entries: readonly string[];
  /** What stands for the entries left out (by index). */
  leftOut: (omitted: readonly number[]) => string;
  /**
   * Room kept for that note. By default the note's length when every entry is left out, which
   * bounds a note that only counts; a note that names entries has to fit itself into a room.
   */
  noteRoom?: number;
}

export type Part = string | Listing;

/** The parts in order, in at most `maxChars` characters. */
export function fitDocument(parts: readonly Part[], maxChars: number): string {
  let text = '';
  parts.forEach((part, i) => {
    const room = Math.max(0, maxChars - text.length - leastOf(parts.slice(i + 1)));
    text += typeof part === 'string' ? clip(part, room) : fitListing(part, room);
  });
  return text;
}

/**
 * The entries that fit in `room`, in order. One longer than what is left is passed over and
 * counted as left out: a huge diff should not hide the small ones after it.
 */
export function pick(entries: readonly string[], room: number): { shown: string[]; omitted: number[] } {
  const shown: string[] = [];
  const omitted: number[] = [];
  let used = 0;
  entries.forEach((entry, i) => {
    if (used + entry.length <= room) {
      shown.push(entry);
      used += entry.length;
    } else omitted.push(i);
  });
  return { shown, omitted };
}

/** Names as code, comma-separated, in at most `room` characters: those that fit, then how many did not. */
export function nameList(names: readonly string[], room: number): string {
  const items = names.map((name) => `${code(name)}, `);
  const whole = items.join('').slice(0, -2);
  if (whole.length <= room) return whole;
  const { shown, omitted } = pick(items, room - `and ${names.length} more`.length);
  return clip(`${shown.join('')}and ${omitted.length} more`, room);
}

function fitListing(listing: Listing, room: number): string {
  const whole = `${listing.title}${listing.open}${listing.entries.join('')}${listing.close}`;
  if (whole.length <= room) return whole;
  const noteRoom = Math.min(noteRoomOf(listing), Math.max(0, room - listing.title.length));
  const { shown, omitted } = pick(listing.entries, room - listing.title.length - listing.open.length - listing.close.length - noteRoom);
  const body = shown.length > 0 ? `${listing.open}${shown.join('')}${listing.close}` : '';
  // Clipping is for a room smaller than a title; the smallest --report-max-chars leaves more.
  return clip(`${listing.title}${body}${clip(listing.leftOut(omitted), noteRoom)}`, room);
}

/** What the parts need at the least: fixed text whole, a listing its title and note. */
function leastOf(parts: readonly Part[]): number {
  return parts.reduce((sum, part) => sum + (typeof part === 'string' ? part.length : Math.min(wholeLength(part), part.title.length + noteRoomOf(part))), 0);
}

function wholeLength(listing: Listing): number {
  return listing.entries.reduce((sum, entry) => sum + entry.length, listing.title.length + listing.open.length + listing.close.length);
}

function noteRoomOf(listing: Listing): number {
  return listing.noteRoom ?? listing.leftOut(listing.entries.map((_, i) => i)).length;
}

function clip(text: string, room: number): string {
  return text.length <= room ? text : text.slice(0, room);
}
