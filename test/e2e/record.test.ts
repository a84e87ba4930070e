/** `attach NAME --record` and `replay FILE` end to end: the built CLI in a real pty, recording a session and playing it back. */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { parseCast } from '../../src/attach/asciicast.js';
import { attachAndRun, openIntern } from './harness.js';
import { e2eSuite } from './suite.js';

const { open } = e2eSuite();
const PROMPT = /[#$] ?$/m;
const exited = (t: { exitCode: number | null }) => vi.waitFor(() => expect(t.exitCode).not.toBeNull(), { timeout: 15_000, interval: 20 });
const dir = mkdtempSync(join(tmpdir(), 'e2e-record-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('attach --record and replay', () => {
  it('records what the remote wrote while attached, and plays it back through the emulator', async () => {
    const file = join(dir, 'session.cast');
    const t = open({ args: ['attach', 'runner', '--record', file], cols: 80, rows: 20 });
    await t.waitFor(PROMPT);
    await t.type('echo rec-$((6*7))-done');
    await t.press('enter');
    await t.waitFor('rec-42-done');
    t.resize(90, 22);
    await t.type('stty size');
    await t.press('enter');
    await t.waitFor('22 90');
    await t.press('ctrl+]');
    await exited(t);
    expect(t.exitCode).toBe(0);
    expect(t.output).toContain(`[recorded to ${file}]`);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const { header, events } = parseCast(readFileSync(file, 'utf8'));
    expect(header).toMatchObject({ version: 2, width: 80, height: 20, title: 'intern runner', env: { TERM: 'xterm-256color' } });
    const output = events.filter((e) => e.code === 'o').map((e) => e.data).join('');
    expect(output).toContain('rec-42-done');
    expect(output).toContain('22 90');
    expect(events.filter((e) => e.code === 'm').map((e) => e.data)).toEqual(['attach', 'detach']);
    expect(events.filter((e) => e.code === 'r').map((e) => e.data)).toEqual(['90x22']);
    // Typed input only with --record-input.
    expect(events.some((e) => e.code === 'i')).toBe(false);

    // Played back, the screen shows the session; the recording's bytes reach the terminal only as the player paints them.
    const r = open({ args: ['replay', file, '--speed', '50'], cols: 100, rows: 30 });
    await r.waitFor('rec-42-done');
    await r.waitFor(/0:0\d \/ 0:\d\d/);
    await r.press('space');
    await r.waitFor(/paused|ended/);
    await r.press('left');
    await r.press('q');
    await exited(r);
    expect(r.exitCode).toBe(0);
    // Left as found: autowrap on, the alternate screen left.
    expect(r.output.lastIndexOf('\x1b[?1049l')).toBeGreaterThan(r.output.lastIndexOf('\x1b[?1049h'));
  });

  it('has all of a large burst in the file when detached as soon as its end is on screen', async () => {
    const file = join(dir, 'burst.cast');
    const t = open({ args: ['attach', 'runner', '--record', file], cols: 80, rows: 20 });
    await t.waitFor(PROMPT);
    await t.type('seq 1 300000; echo burst-$((6*7))-end');
    await t.press('enter');
    await t.waitFor('burst-42-end');
    await t.press('ctrl+]');
    await exited(t);
    expect(t.exitCode).toBe(0);
    const { events } = parseCast(readFileSync(file, 'utf8'));
    const output = events.filter((e) => e.code === 'o').map((e) => e.data).join('');
    const seq = Array.from({ length: 300_000 }, (_, i) => i + 1).join('\r\n');
    expect(output.includes(`\r\n${seq}\r\nburst-42-end\r\n`)).toBe(true);
    expect(events.at(-1)).toMatchObject({ code: 'm', data: 'detach' });
  });

  it('records to the state folder with input when asked, and refuses a file that exists', async () => {
    const state = join(dir, 'state');
    const t = open({ args: ['attach', 'runner', '--record', '--record-input'], env: { XDG_STATE_HOME: state } });
    await t.waitFor(PROMPT);
    await t.type('echo typed-in');
    await t.press('enter');
    await t.waitFor('typed-in');
    await t.press('ctrl+]');
    await exited(t);
    const folder = join(state, 'intern-tui', 'recordings');
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    const [name] = readdirSync(folder);
    expect(name).toMatch(/^runner-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.cast$/);
    const { events } = parseCast(readFileSync(join(folder, name!), 'utf8'));
    expect(events.filter((e) => e.code === 'i').map((e) => e.data).join('')).toContain('echo typed-in\r');

    const again = open({ args: ['attach', 'runner', '--record', join(folder, name!)] });
    await exited(again);
    expect(again.exitCode).toBe(1);
    expect(again.output).toContain('the file exists: give another name, or remove it first');
  });

  it('records from the TUI with :attach NAME --record, lists it in :replay and plays it there', async () => {
    const state = join(dir, 'tui-state');
    const t = open({ env: { XDG_STATE_HOME: state } });
    await t.ready();
    await t.press(':');
    await t.type('attach runner --record');
    await t.press('enter');
    await t.waitFor('connected');
    await t.type('echo tui-rec-$((6*7))');
    await t.press('enter');
    await t.waitFor('tui-rec-42');
    await t.press('ctrl+]');
    await t.waitFor(/recorded to .*recordings\/runner-/);
    await t.press(':');
    await t.type('replay');
    await t.press('enter');
    await t.waitFor(/runner\s+\d{4}-\d\d-\d\d \d\d:\d\d\s+0:\d\d/);
    await t.press('enter');
    await t.waitFor('tui-rec-42');
    await t.waitFor('intern runner │');
    await t.press('q');
    await t.waitFor('Recordings');
    await t.waitForGone('intern runner │');
  });

  it('searches the history and copies a match with OSC 52 in the TUI', async () => {
    const t = open({ args: ['--scrollback', '500'] });
    await openIntern(t, 'runner');
    await attachAndRun(t, 'seq 1 200; echo copy-$((6*7))-me', 'copy-42-me');
    await t.press('shift+pageup');
    await t.waitFor('history: ');
    for (const key of ['/', ...'copy-42', 'enter']) await t.press(key);
    await t.waitFor('"copy-42": n/N next/previous');
    for (const key of ['v', ...'llllllllll', 'y']) await t.press(key);
    await t.waitForGone('history');
    expect(t.output).toContain(`\x1b]52;c;${Buffer.from('copy-42-me').toString('base64')}\x07`);
  });

  it('says in one line that a file is not asciicast v2', async () => {
    const bad = join(dir, 'notes.txt');
    writeFileSync(bad, 'just some notes\n');
    const r = open({ args: ['replay', bad] });
    await exited(r);
    expect(r.exitCode).toBe(1);
    expect(r.output.trim()).toMatch(/notes\.txt: not an asciicast recording: its first line is not a JSON header$/);
    expect(existsSync(bad)).toBe(true);
  });
});
