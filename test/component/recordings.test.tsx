import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeEvent, encodeHeader } from '../../src/attach/asciicast.js';
import { resolveCommand } from '../../src/tui/commands.js';
import { renderApp } from './render.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A recordings folder with one recording of `runner`, 83 s long, and a file that is not one. */
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'recordings-'));
  dirs.push(dir);
  const cast = encodeHeader({ version: 2, width: 80, height: 24, timestamp: Date.UTC(2026, 10, 28, 12, 59) / 1000, title: 'intern runner' }) + encodeEvent(0.5, 'o', '$ ') + encodeEvent(83.2, 'm', 'detach');
  writeFileSync(join(dir, 'runner-2026-11-28T12-59-03Z.cast'), cast);
  writeFileSync(join(dir, 'notes-2026-11-27T10-00-00Z.cast'), 'not a recording\n');
  return dir;
}

describe(':replay', () => {
  it('lists the recordings with the intern, when it began, its length and size, and says what cannot be played', async () => {
    const dir = folder();
    const app = renderApp({ initial: { name: 'replay' }, options: { recordingsDir: dir } });
    const frame = await app.waitFor('runner');
    expect(frame).toMatch(/runner\s+2026-11-28 12:59\s+1:23\s+\d+ B/);
    expect(frame).toMatch(/notes .*not an asciicast recording/);
    app.unmount();
  });

  it('deletes a recording with D once the question is answered yes, and keeps it on no', async () => {
    const dir = folder();
    const app = renderApp({ initial: { name: 'replay' }, options: { recordingsDir: dir } });
    await app.waitFor('runner');
    await app.press('D');
    await app.waitFor('Delete the recording runner-2026-11-28T12-59-03Z.cast? (y/n)');
    await app.press('n');
    await app.waitFor((f) => !f.includes('(y/n)'));
    expect(existsSync(join(dir, 'runner-2026-11-28T12-59-03Z.cast'))).toBe(true);
    await app.press('D');
    await app.waitFor('(y/n)');
    await app.press('y');
    await app.waitFor('deleted runner-2026-11-28T12-59-03Z.cast');
    expect(existsSync(join(dir, 'runner-2026-11-28T12-59-03Z.cast'))).toBe(false);
    app.unmount();
  });

  it('says there is nowhere to record without a state folder', async () => {
    const app = renderApp({ initial: { name: 'replay' }, options: { recordingsDir: null } });
    await app.waitFor('no state folder (set HOME or XDG_STATE_HOME): nothing is recorded');
    app.unmount();
  });
});

describe(':attach NAME --record', () => {
  it('hands the flag to the command, and refuses one it does not take', () => {
    const r = resolveCommand('attach runner --record');
    expect('command' in r && { name: r.command.name, arg: r.arg, flags: r.flags }).toEqual({ name: 'attach', arg: 'runner', flags: ['--record'] });
    expect(resolveCommand('attach runner --recrod')).toEqual({ error: 'attach takes only --record: not --recrod' });
    expect(resolveCommand('open runner --record')).toEqual({ error: 'open takes no flags: not --record' });
  });
});
