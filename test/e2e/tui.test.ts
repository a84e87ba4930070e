/** The built CLI in a real pty against a sandbox process: what a person sees and types. */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { CLI, Tui, openIntern } from './harness.js';
import { e2eSuite } from './suite.js';

const { sandbox, open } = e2eSuite();

describe('the TUI', () => {
  it('lists interns and shows every field of one', async () => {
    const t = open();
    const screen = await t.waitFor('runner-jpeg');
    expect(screen).toContain('workspace default');
    expect(screen).toMatch(/● running/);
    expect(screen).toMatch(/✖ failed/);
    expect(screen).toMatch(/awaiting_slack_install/);
    await openIntern(t, 'broken');
    const details = await t.waitFor('Image pull failed');
    expect(details).toContain(sandbox().manifest.interns.failed);
  });

  it('refuses a config file it cannot use: exit 2, the file and the reason on the terminal, no screen', async () => {
    // The error is thrown inside the TUI's bundle (dist/tui.cjs) and reported by dispatch.ts outside it.
    const config = mkdtempSync(join(tmpdir(), 'e2e-bad-config-'));
    mkdirSync(join(config, 'intern-tui'));
    writeFileSync(join(config, 'intern-tui', 'config.json'), '{"profiles": 5}');
    const t = new Tui({ env: { XDG_CONFIG_HOME: config } });
    try {
      expect(await t.waitForExit(15_000)).toBe(2);
      // The line wraps at the terminal's width: compare without whitespace.
      const said = t.screen().replace(/\s+/g, '');
      expect(said).toContain(`intern-tui:${join(config, 'intern-tui', 'config.json')}:profiles:Invalidinput:expectedrecord`);
      expect(t.screen()).not.toContain('Interns');
    } finally {
      await t.close();
      rmSync(config, { recursive: true, force: true });
    }
  });

  it('fits a narrow terminal: one header line, and list rows that never wrap', async () => {
    const t = open({ cols: 40, rows: 16 });
    await t.ready();
    const lines = t.screen().split('\n');
    // The credential marks stay whole on the first line; the left part is cut instead.
    expect(lines[0]!.trimEnd()).toMatch(/^intern-tui .* api✓ mgmt✓ oauth✓$/);
    expect(lines[1]).toMatch(/^─{40}$/);
    // The list's title line is cut, not wrapped under itself: the column headers follow it.
    expect(lines[2]).toMatch(/^Interns {2}\d+ · status: all/);
    expect(lines[3]).toMatch(/^ +NAME +STATUS/);
    // Every intern is one row: its name and its status on the same line.
    for (const name of ['runner-jpeg', 'sleeper', 'broken']) expect(t.screen()).toMatch(new RegExp(`★ ${name} +[●○✖] \\w`));
    await t.press('enter');
    await t.waitFor(/id {2,}[0-9a-f-]{8}/);
    expect(t.screen().split('\n')[0]!.trimEnd()).toMatch(/oauth✓$/);
    // Connection groups that do not fit side by side go one under the other, whole.
    await t.press('c');
    await t.waitFor(/Feature check/);
    expect(t.screen()).toMatch(/^Built-in \(\d+\)/m);
    expect(t.screen()).toMatch(/^Custom MCP servers \(\d+\)/m);
    await t.press('q');
    await t.waitFor(/id {2,}[0-9a-f-]{8}/);
    // The vault's and the BYOK list's title lines are cut the same way.
    await t.press('v');
    const vault = (await t.waitFor(/^Secrets of .* NAME +HOSTS/ms)).split('\n');
    expect(vault[3]).toMatch(/^ +NAME +HOSTS/);
    await t.press('b');
    const byok = (await t.waitFor(/^BYOK credentials .* PROVIDER/ms)).split('\n');
    expect(byok[3]).toMatch(/^ +PROVIDER/);
  });

  it('takes a key typed the moment the list appears as that key (raw mode from the first frame)', async () => {
    const t = open();
    await t.ready();
    // The list can be drawn in the very first frame: enter at once must open the selected intern.
    await t.press('enter');
    await t.waitFor(/id {2,}[0-9a-f-]{36}/);
  });

  it('renames an intern and shows the new name in the list', async () => {
    const t = open();
    await openIntern(t, 'plain');
    await t.press('e');
    await t.waitFor('Settings of plain');
    await t.press('backspace', 'backspace', 'backspace', 'backspace', 'backspace');
    // Backspace (DEL) erased backwards; the Delete key (ESC[3~) deletes the X under the cursor.
    await t.type('plain-twoX');
    await t.press('left', 'delete');
    await t.waitFor('will send: name');
    await t.press('ctrl+s');
    // The details of the renamed intern, with the flash (not the form's "unsaved changes").
    await t.waitFor((s) => /plain-two ★ yours/.test(s) && /^saved/m.test(s));
    await t.press('q');
    await t.press('/', 'backspace', 'backspace', 'backspace', 'backspace', 'backspace');
    await t.press('enter');
    await t.waitFor(/★ plain-two +● running/);
  });

  it('keeps the whole form when the name is taken', async () => {
    const t = open();
    await openIntern(t, 'runner-jpeg');
    await t.press('e');
    await t.waitFor('Settings of runner-jpeg');
    await t.press('tab');
    await t.type('kept edit');
    await t.press('shift+tab');
    for (let i = 0; i < 'runner-jpeg'.length; i++) await t.press('backspace');
    await t.type(sandbox().manifest.names.taken);
    await t.press('ctrl+s');
    // The field's message and the error box come in one frame, which may reach the pty in pieces.
    const screen = await t.waitFor((s) => s.includes('already used by another of your interns') && s.includes('Name taken'));
    expect(screen).toContain(`name          ${sandbox().manifest.names.taken}`.slice(0, 10));
    expect(screen).toContain(sandbox().manifest.names.taken);
    expect(screen).toContain('kept edit');
  });

  it('provisions a stopped intern and follows its progress to running', async () => {
    const t = open();
    await openIntern(t, 'sleeper');
    await t.press('p');
    await t.waitFor(/\(\d of 4\)|queued/);
    await t.waitFor(/● running/, 20_000);
    await t.waitFor(/hostname +sleeper-/);
  });

  it('filters the list and shows the help overlay', async () => {
    const t = open();
    await t.ready();
    await t.press('/');
    await t.type('slack');
    // Wait for the filtered list itself: slack-pending is on the unfiltered first page too.
    const filtered = await t.waitFor((s: string) => s.includes('slack-pending') && !s.includes('runner-jpeg'));
    expect(filtered).toContain('slack-pending');
    await t.press('esc');
    await t.waitFor('runner-jpeg');
    await t.press('?');
    await t.waitFor('Keys (esc or ? to close');
    // The help scrolls (j) when it is longer than the screen: every group can be reached.
    const seen: string[] = [];
    for (let i = 0; i < 80 && !(seen.join('\n').includes('BYOK credentials') && /\^s +save/.test(seen.join('\n'))); i++) {
      seen.push(t.screen());
      await t.press('j');
    }
    const help = seen.join('\n');
    expect(help).toContain('BYOK credentials');
    expect(help).toMatch(/\^s +save/);
    await t.press('esc');
    await t.waitForGone('Keys (esc or ? to close');
  });

  it('takes a bracketed paste as text: a pasted "byok\\r" in the palette does not run', async () => {
    const t = open();
    await t.ready();
    await t.press(':');
    await t.waitFor(/│ › :/);
    t.write('\x1b[200~byok\r\x1b[201~');
    const pasted = await t.waitFor(/: +byok/);
    expect(pasted).toMatch(/│ › :/);
    await t.press('enter');
    await t.waitFor(/BYOK credentials · /);
  });

  it('creates a BYOK credential: a bad hash shows the field error, fixed it saves, and the key is never drawn', async () => {
    const secret = 'gsk-e2e-secret-123456';
    const t = open();
    await t.ready();
    await t.press('b');
    await t.waitFor('BYOK credentials');
    await t.press('n');
    await t.waitFor('New BYOK credential');
    await t.type('groq');
    await t.press('tab');
    await t.type(secret);
    await t.press('tab', 'tab', 'tab');
    await t.type('nothex');
    await t.waitFor('64 lowercase hex');
    await t.press('ctrl+s');
    await t.waitFor('fix the marked fields first');
    for (let i = 0; i < 6; i++) await t.press('backspace');
    await t.type(sandbox().manifest.api_key_hashes.own[0]!);
    await t.waitForGone('64 lowercase hex');
    await t.press('ctrl+s');
    const details = await t.waitFor('groq credential');
    expect(details).toContain('gsk-...3456');
    expect(t.output).not.toContain('e2e-secret');
  });

  it('draws a server string full of escape sequences as harmless text', async () => {
    const evil = '\x1b]0;pwned-title\x07\x1b[2J\x1b[31mEVIL\x1b[0m\x1b[?1049l text';
    const res = await request(`${sandbox().manifest.base_url}/interns/${sandbox().manifest.interns.no_icon}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${sandbox().manifest.credentials.api_key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'escapes', description: evil }),
    });
    expect(res.statusCode).toBe(200);
    await res.body.dump();
    const t = open();
    let title = '';
    t.term.onTitleChange((s) => (title = s));
    await openIntern(t, 'escapes');
    const screen = await t.waitFor('EVIL text');
    expect(screen).toContain('intern-tui');
    expect(title).not.toContain('pwned');
    expect(t.output).not.toContain('pwned-title');
  });

  it('fits 80x24 and redraws on resize with nothing stale left behind', async () => {
    const t = open({ cols: 80, rows: 24 });
    await t.ready();
    let screen = await t.waitFor('j/k move');
    const lines = screen.split('\n');
    expect(lines[0]).toMatch(/^intern-tui .*api✓ mgmt✓ oauth✓$/);
    expect(lines.findIndex((l) => l.startsWith('j/k move'))).toBeLessThan(24);
    t.resize(120, 40);
    // One frame can reach the pty in pieces: a wide header alone does not mean the rows below are drawn
    // yet (that early pass was the flake), so wait for the whole frame, the footer included.
    screen = await t.waitFor((s: string) => s.split('\n')[0]!.length > 100 && s.includes('stuck-delete') && /^j\/k move/m.test(s));
    expect(screen.split('\n').findIndex((l) => l.includes('stuck-delete'))).toBeLessThan(40);
    t.resize(80, 24);
    screen = await t.waitFor((s: string) => /^intern-tui .{20,}oauth✓$/.test(s.split('\n')[0]!) && s.split('\n')[0]!.length <= 80 && s.includes('j/k move'));
    // One header, one footer: the bigger frame left no rows behind.
    expect(screen.match(/^intern-tui /gm)).toHaveLength(1);
    expect(screen.match(/^j\/k move/gm)).toHaveLength(1);
    expect(screen).not.toMatch(/^filter {2}e edit/m); // the wide footer, reflowed
  });

  it('exits 2 with one line when stdin is not a terminal', () => {
    const res = spawnSync(process.execPath, [CLI], { input: '', encoding: 'utf8', env: { ...process.env, OPENROUTER_API_KEY: 'x' } });
    expect(res.status).toBe(2);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).toMatch(/needs an interactive terminal/);
  });

  it('exits 2 with one line when stdin is not a terminal and nothing is configured (the sandbox thread warmed for the start is ended)', () => {
    const home = mkdtempSync(join(tmpdir(), 'e2e-no-tty-'));
    try {
      const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, XDG_CONFIG_HOME: join(home, 'config'), XDG_CACHE_HOME: join(home, 'cache'), TMPDIR: home };
      const res = spawnSync(process.execPath, [CLI], { input: '', encoding: 'utf8', env, timeout: 30_000 });
      expect(res.status).toBe(2);
      expect(res.stderr.trim().split('\n')).toHaveLength(1);
      expect(res.stderr).toMatch(/needs an interactive terminal/);
      // The thread only loaded code: no folder of a sandbox's was made in the temporary directory.
      expect(readdirSync(home).filter((f) => f !== 'cache')).toEqual([]);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('exits 2 with one line on a terminal that says it cannot move its cursor (TERM=dumb), and starts no sandbox', async () => {
    const t = new Tui({ env: { TERM: 'dumb' } });
    try {
      expect(await t.waitForExit()).toBe(2);
      const screen = await t.waitFor('TERM=dumb');
      expect(screen).toMatch(/intern-tui: the TUI needs a terminal that can move its cursor, and TERM=dumb says this one cannot/);
      expect(screen).not.toContain('intern-tui SANDBOX');
    } finally {
      await t.close();
    }
  });
});
