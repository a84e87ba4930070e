/**
 * Every screen at the widths people's terminals and split panes have: no line may be wider than
 * the terminal, which would wrap it and push the header off the top (a row of the settings form
 * came out a cell too wide at one width in six).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import type { Route } from '../../src/tui/context.js';
import { widthOf } from '../../src/text.js';
import { IDS } from './fakeApi.js';
import { renderApp } from './render.js';

afterEach(() => cleanup());

/** A route, what shows once it has loaded, and keys pressed then (with what they bring). */
const SCREENS: { route: Route; shows: string; keys?: string[]; then?: string }[] = [
  { route: { name: 'interns' }, shows: 'sleeper' },
  { route: { name: 'interns' }, shows: 'sleeper', keys: ['?'], then: 'Keys (esc' },
  { route: { name: 'interns' }, shows: 'sleeper', keys: [':'], then: '│ › :' },
  { route: { name: 'interns' }, shows: 'sleeper', keys: ['/'], then: '/ filter' },
  { route: { name: 'intern', id: IDS.runner }, shows: 'Keeps CI green.' },
  { route: { name: 'settings', id: IDS.runner }, shows: 'Settings of runner', keys: ['tab'] },
  { route: { name: 'connections', id: IDS.runner }, shows: 'Built-in' },
  { route: { name: 'create' }, shows: 'New intern', keys: ['X'], then: 'must be' },
  { route: { name: 'vault' }, shows: 'ecret' },
  { route: { name: 'vault', internId: IDS.runner }, shows: 'ecret' },
  { route: { name: 'chat', id: IDS.runner }, shows: 'a prompt' },
  { route: { name: 'byok' }, shows: 'anthropic' },
  { route: { name: 'byokDetails', id: 'c1' }, shows: 'sort order' },
  { route: { name: 'byokForm' }, shows: 'provider' },
  { route: { name: 'byokForm', id: 'c1' }, shows: 'provider' },
];

const WIDTHS = [40, 50, 59, 62, 65, 70, 79, 80, 100, 120];

describe('every screen at every width', () => {
  it('draws no line wider than the terminal', async () => {
    const wide: string[] = [];
    for (const screen of SCREENS) {
      for (const columns of WIDTHS) {
        const app = renderApp({ initial: screen.route });
        app.resize({ columns });
        await app.waitFor(screen.shows);
        for (const k of screen.keys ?? []) await app.press(k);
        if (screen.then) await app.waitFor(screen.then);
        // Every frame drawn at this width (its header's rule as wide as the terminal): a field's
        // first, drawn before it could measure its row, and every one after.
        await app.waitFor((f) => widthOf(f.split('\n')[1] ?? '') === columns);
        const atWidth = app.frames.filter((f) => widthOf(f.split('\n')[1] ?? '') === columns);
        for (const line of new Set(atWidth.flatMap((f) => f.split('\n')))) {
          if (widthOf(line) > columns) wide.push(`${screen.route.name}${screen.keys ? ` ${screen.keys.join('')}` : ''} at ${columns}: ${widthOf(line)} cells: ${line}`);
        }
        app.unmount();
        cleanup();
      }
    }
    expect(wide).toEqual([]);
  });
});
