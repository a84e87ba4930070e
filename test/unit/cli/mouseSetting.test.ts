/** The mouse setting: on by default, off by the profile's `mouse: false` or by --no-mouse. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../../src/cli/args.js';
import { readConfig } from '../../../src/cli/config.js';
import { resolveConfig } from '../../../src/cli/settings.js';

describe('the mouse setting', () => {
  it('is on unless the profile or --no-mouse says otherwise', () => {
    expect(resolveConfig({}, {}, { profiles: {} }).mouse).toBe(true);
    expect(resolveConfig({}, {}, { profiles: { x: { mouse: false } }, default_profile: 'x' }).mouse).toBe(false);
    expect(resolveConfig({}, {}, { profiles: { x: { mouse: true } }, default_profile: 'x' }).mouse).toBe(true);
    expect(resolveConfig({ noMouse: true }, {}, { profiles: { x: { mouse: true } }, default_profile: 'x' }).mouse).toBe(false);
  });

  it('is a TUI flag', () => {
    expect(parseCommand(['--no-mouse'])).toMatchObject({ kind: 'tui', flags: { noMouse: true } });
    expect(parseCommand([])).toMatchObject({ kind: 'tui', flags: { noMouse: undefined } });
  });

  it('refuses a profile\'s mouse that is not true or false, naming it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mouse-config-'));
    const path = join(dir, 'config.json');
    writeFileSync(path, '{"profiles": {"a": {"mouse": "off"}}}');
    expect(() => readConfig(path)).toThrow(/profiles\.a\.mouse/);
  });
});
