/** NO_COLOR and --no-color: the built CLI in a real pty sends no colour escape at all (read from the raw bytes). */
import { describe, expect, it } from 'vitest';
import { openIntern } from './harness.js';
import { e2eSuite } from './suite.js';

const { open } = e2eSuite();

/** SGR sequences that set a foreground or background colour (16, 256 or true colour). */
function colourEscapes(raw: string): string[] {
  const found: string[] = [];
  for (const m of raw.matchAll(/\x1b\[([0-9;:]*)m/g)) {
    const params = m[1]!.split(/[;:]/).map(Number);
    for (let i = 0; i < params.length; i++) {
      const p = params[i]!;
      if (p === 38 || p === 48) {
        found.push(m[0]);
        break;
      }
      if ((p >= 30 && p <= 37) || (p >= 40 && p <= 47) || (p >= 90 && p <= 97) || (p >= 100 && p <= 107)) {
        found.push(m[0]);
        break;
      }
    }
  }
  return found;
}

describe('the no-colour theme', () => {
  it('draws in colour by default (so the checks below can fail)', async () => {
    const t = open();
    await t.ready();
    await t.waitFor('● running');
    expect(colourEscapes(t.output).length).toBeGreaterThan(0);
  });

  it('NO_COLOR=1 leaves no colour escape in the output of the list, the details and the help', async () => {
    const t = open({ env: { NO_COLOR: '1' } });
    await t.ready();
    await t.waitFor('● running');
    await openIntern(t, 'broken');
    await t.waitFor('Image pull failed');
    await t.press('?');
    await t.waitFor('Keys (esc');
    expect(colourEscapes(t.output)).toEqual([]);
    // The selection is still marked without colour.
    expect(t.output).toMatch(/\x1b\[7m/);
  });

  it('--no-color does the same', async () => {
    const t = open({ args: ['--no-color'] });
    await t.ready();
    await t.waitFor('● running');
    expect(colourEscapes(t.output)).toEqual([]);
    // Styles stay, as under NO_COLOR: the selection in inverse (chalk read the flag as "no styles").
    expect(t.output).toMatch(/\x1b\[7m/);
  });

  it('INTERN_TUI_THEME=light draws no yellow, cyan or white text (unreadable on white), and still draws colour', async () => {
    const t = open({ env: { INTERN_TUI_THEME: 'light' } });
    await t.ready();
    // The demo's list has interns on their way up and going away, drawn in the warning colour.
    await t.waitFor('◐ provisioning');
    await t.press('?');
    await t.waitFor('Keys (esc');
    const fg = (codes: number[]) => colourEscapes(t.output).filter((e) => e.slice(2, -1).split(';').map(Number).some((p) => codes.includes(p)));
    expect(fg([33, 36, 37])).toEqual([]);
    expect(fg([34, 35]).length).toBeGreaterThan(0);
  });
});
