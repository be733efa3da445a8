/** Fitting a report into a number of characters: the bound holds for any content, and what is cut is said. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitDocument, nameList, pick, type Listing, type Part } from '../../src/report/budget.js';

function listing(entries: string[], name = 'rows'): Listing {
  return {
    title: `## ${name}\n\n`,
    open: '| a |\n|---|\n',
    close: '\n',
    entries,
    leftOut: (omitted) => `${omitted.length} of ${entries.length} ${name} left out\n\n`,
  };
}

const rows = (n: number, width = 20) => Array.from({ length: n }, (_, i) => `| ${String(i).padEnd(width, 'x')} |\n`);

describe('fitDocument', () => {
  it('is the parts joined, with no note, when they fit', () => {
    const parts = ['# head\n\n', listing(rows(3))];
    const whole = `# head\n\n## rows\n\n| a |\n|---|\n${rows(3).join('')}\n`;
    expect(fitDocument(parts, whole.length)).toBe(whole);
  });

  it('cuts a listing to what fits and says how many entries were left out', () => {
    const text = fitDocument(['# head\n\n', listing(rows(100))], 1000);
    expect(text.length).toBeLessThanOrEqual(1000);
    const shown = text.split('\n').filter((l) => /^\| \d+x*/.test(l)).length;
    expect(shown).toBeGreaterThan(20);
    expect(text).toContain(`${100 - shown} of 100 rows left out`);
    expect(text.startsWith('# head\n\n## rows\n\n| a |\n|---|\n| 0')).toBe(true);
  });

  it('keeps room for the notes of later listings when an earlier one takes everything', () => {
    const text = fitDocument(['# head\n\n', listing(rows(1000), 'review items'), listing(rows(50), 'diffs')], 2000);
    expect(text.length).toBeLessThanOrEqual(2000);
    expect(text).toMatch(/\d+ of 1000 review items left out/);
    expect(text).toContain('## diffs\n\n50 of 50 diffs left out');
  });

  it('passes over an entry too long for the room and shows the shorter ones after it', () => {
    const entries = ['small 1\n', `${'x'.repeat(5000)}\n`, 'small 2\n'];
    let omittedSeen: readonly number[] = [];
    const part: Listing = { ...listing(entries), leftOut: (omitted) => ((omittedSeen = omitted), `left out: ${omitted.join(',')}\n`), noteRoom: 40 };
    const text = fitDocument([part], 500);
    expect(text).toContain('small 1\nsmall 2\n');
    expect(omittedSeen).toEqual([1]);
    expect(text).toContain('left out: 1\n');
  });

  it('gives a listing that shows nothing its title and note only', () => {
    const text = fitDocument([listing([`${'x'.repeat(5000)}\n`])], 200);
    expect(text).toBe('## rows\n\n1 of 1 rows left out\n\n');
  });

  it('clips a note longer than the room it promised', () => {
    const part: Listing = { ...listing(rows(100)), leftOut: () => 'n'.repeat(500), noteRoom: 50 };
    const text = fitDocument([part], 1000);
    expect(text.length).toBeLessThanOrEqual(1000);
    expect(text.endsWith('n'.repeat(50))).toBe(true);
    expect(text).not.toContain('n'.repeat(51));
  });

  it('never goes over the bound, whatever the parts and however small the bound', () => {
    const entry = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ minLength: 500, maxLength: 3000 }), fc.constantFrom('```\n', '`'.repeat(200)));
    const part: fc.Arbitrary<Part> = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.record({ title: fc.string({ maxLength: 80 }), entries: fc.array(entry, { maxLength: 60 }), noteRoom: fc.option(fc.nat(400), { nil: undefined }) }).map(
        ({ title, entries, noteRoom }): Listing => ({ ...listing(entries), title, leftOut: (omitted) => `${omitted.length} left out ${'.'.repeat(omitted.length)}`, ...(noteRoom === undefined ? {} : { noteRoom }) }),
      ),
    );
    fc.assert(
      fc.property(fc.array(part, { maxLength: 8 }), fc.nat(20_000), (parts, max) => {
        expect(fitDocument(parts, max).length).toBeLessThanOrEqual(max);
      }),
      { numRuns: 300 },
    );
  });
});

describe('pick', () => {
  it('takes entries in order while they fit, and names the others by index', () => {
    expect(pick(['aa', 'bbbb', 'c', 'dd'], 5)).toEqual({ shown: ['aa', 'c', 'dd'], omitted: [1] });
    expect(pick(['aa'], -1)).toEqual({ shown: [], omitted: [0] });
  });
});

describe('nameList', () => {
  it('names every file when they fit', () => {
    expect(nameList(['a.ts', 'b.ts'], 100)).toBe('`a.ts`, `b.ts`');
  });

  it('names those that fit and counts the rest, within the room', () => {
    const names = Array.from({ length: 500 }, (_, i) => `src/module-${i}.ts`);
    const text = nameList(names, 300);
    expect(text.length).toBeLessThanOrEqual(300);
    const named = text.match(/`[^`]+`/g)!.length;
    expect(named).toBeGreaterThan(5);
    expect(text).toMatch(new RegExp(`^\`src/module-0\\.ts\`, .*, and ${500 - named} more$`));
  });
});
