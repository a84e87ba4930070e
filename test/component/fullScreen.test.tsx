/**
 * A full-screen route (attach, a recording) over the screen it was opened from: that screen stays
 * mounted under it, hidden and stopped (React's Activity in app.tsx), and leaving shows it again as
 * it was, rather than building it anew: the detach key back to the intern's details (bench row 4).
 */
import { createElement, useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { FakeApi, IDS } from './fakeApi.js';
import type * as Details from '../../src/tui/screens/InternDetails.js';
import { renderApp } from './render.js';

/** How many times the details screen was built (a useState initializer runs once per mount, not when shown again). */
const built = vi.hoisted(() => ({ details: 0 }));
vi.mock('../../src/tui/screens/InternDetails.js', async (importOriginal) => {
  const real = await importOriginal<typeof Details>();
  function InternDetails(props: Parameters<typeof real.InternDetails>[0]) {
    useState(() => ++built.details);
    return createElement(real.InternDetails, props);
  }
  return { ...real, InternDetails };
});

afterEach(() => {
  cleanup();
  built.details = 0;
});

describe('a full-screen route over a screen', () => {
  it('keeps the details under the attach screen, hidden, and shows them again on detach', async () => {
    const api = new FakeApi();
    const app = renderApp({ api, initial: { name: 'intern', id: IDS.sleeper } });
    await app.waitFor((f) => f.includes('sleeper') && f.includes('id  '));
    expect(built.details).toBe(1);
    await app.press('a');
    // The attach screen alone: the details, the header and the footer are not drawn under it.
    const attach = await app.waitFor('is not running');
    expect(attach).not.toContain('id  ');
    const readsWhileHidden = api.callsOf('getIntern').length;
    await app.press('\u001d'); // ctrl+], the detach key
    await app.waitFor((f) => f.includes('id  ') && !f.includes('is not running'));
    // The same details, shown again: not built a second time.
    expect(built.details).toBe(1);
    // Shown again, the screen reads its intern again (its effects run once more).
    await vi.waitFor(() => expect(api.callsOf('getIntern').length).toBeGreaterThan(readsWhileHidden));
  });

  it('gives no key to the screen hidden under it, while it is up or after that screen has gone', async () => {
    const api = new FakeApi();
    const app = renderApp({ api, options: { recordingsDir: null } });
    await app.waitFor('sleeper');
    await app.press(':');
    await app.type('attach sleeper');
    await app.press('enter');
    await app.waitFor('is not running');
    // The list under it, hidden: j, k and enter would move its cursor and open an intern.
    for (const key of ['j', 'k', 'enter']) await app.press(key);
    await app.press('\u001d');
    await app.waitFor('id  ');
    // Detached to the details, which took the list's place: the list is gone, and takes nothing
    // either ("replay" holds an a, the list's attach key).
    await app.press(':');
    await app.type('replay');
    await app.press('enter');
    await app.waitFor('no state folder');
    expect(app.lastFrame()).not.toContain('is not running');
    expect(built.details).toBe(1);
  });

  it('builds the screen anew where the full-screen route was not opened from it', async () => {
    const api = new FakeApi();
    const app = renderApp({ api, initial: { name: 'attach', intern: (await api.getIntern(IDS.sleeper)) } });
    await app.waitFor('is not running');
    expect(built.details).toBe(0);
    await app.press('\u001d');
    await app.waitFor('id  ');
    expect(built.details).toBe(1);
  });
});
