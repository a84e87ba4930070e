/**
 * The `npm start` path: nothing configured, so the TUI opens on the embedded sandbox (in a worker
 * thread) with demo data. Attach reaches a real terminal behind it, and quitting leaves nothing
 * running: the worker closes its database, server and terminals.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Tui, attachAndRun, openIntern } from './harness.js';

let t: Tui | undefined;
afterEach(() => t?.close());

describe('the embedded sandbox', () => {
  it('opens on demo data, attaches to a demo terminal, and exits cleanly', async () => {
    t = new Tui();
    const list = await t.waitFor(/^›/m, 30_000);
    expect(list).toMatch(/SANDBOX +127\.0\.0\.1/);
    for (const name of ['translator', 'researcher', 'reviewer']) expect(list).toContain(name);
    await openIntern(t, 'release-captain');
    await attachAndRun(t, 'echo embedded-$((6*7))', 'embedded-42');
    await t.press('ctrl+]');
    await t.waitFor(/id {2,}[0-9a-f-]{36}/);
    await t.press('ctrl+c');
    expect(await t.waitForExit(15_000)).toBe(0);
  });

  it('--sandbox uses the embedded sandbox even when a service is configured', async () => {
    t = new Tui({ args: ['--sandbox'], env: { OPENROUTER_BASE_URL: 'http://127.0.0.1:9/api/v1', OPENROUTER_API_KEY: 'sk-or-v1-not-used-here' } });
    const list = await t.waitFor(/^›/m, 30_000);
    expect(list).toMatch(/SANDBOX +127\.0\.0\.1 /);
    expect(list).toContain('translator');
  });
});
