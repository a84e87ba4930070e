/** Sorting, marks and a bulk action in the built CLI against a sandbox process: sorted by name, two running interns suspended with one question. */
import { describe, expect, it } from 'vitest';
import { e2eSuite } from './suite.js';

const { open } = e2eSuite();

describe('marks and bulk actions', () => {
  it('sorts by name, marks two running interns from the sandbox fixtures, suspends them with one confirmation, and sees both stopped', async () => {
    const t = open();
    await t.ready();
    await t.waitFor(/plain +● running/);
    await t.waitFor(/runner-jpeg +● running/);
    // Sorted by name (k9s's shift and the column's letter): the header says so, the rows follow.
    await t.press('N');
    const sorted = await t.waitFor('NAME↑');
    const names = sorted
      .split('\n')
      .filter((line) => /[●○◌◐✖◇◑] \w/.test(line))
      .map((line) => /^[›✓ ]*★? *(\S+)/.exec(line)![1]!);
    expect(names.length).toBeGreaterThan(2);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, undefined, { numeric: true, sensitivity: 'base' })));
    // Marked one at a time through the filter: a mark the filter hides stays.
    await t.press('/');
    await t.type('plain');
    await t.press('enter');
    await t.waitFor(/^› ?★? plain /m);
    await t.press('space');
    await t.waitFor('1 marked');
    await t.press('/');
    await t.type('runner-jpeg');
    await t.press('enter');
    await t.waitFor(/^› ?★? runner-jpeg /m);
    await t.press('space');
    await t.waitFor('2 marked (1 hidden)');
    // esc clears the filter first; the marks stay.
    await t.press('esc');
    const list = await t.waitFor((s) => s.includes('2 marked') && !s.includes('hidden') && s.includes('sleeper'));
    expect(list).toMatch(/^✓★? plain /m);
    expect(list).toMatch(/^✓★? runner-jpeg /m);
    await t.press('s');
    const question = await t.waitFor('Suspend 2 interns? (y/n)');
    expect(question).toMatch(/· plain/);
    expect(question).toMatch(/· runner-jpeg/);
    await t.press('y');
    const done = await t.waitFor('2 of 2 interns suspended');
    expect(done).toMatch(/✓ plain/);
    expect(done).toMatch(/✓ runner-jpeg/);
    await t.press('esc');
    const after = await t.waitFor((s) => /★? plain +○ stopped/.test(s) && /★? runner-jpeg +○ stopped/.test(s));
    expect(after).not.toContain('marked');
  });
});
