import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CastError, encodeEvent, parseCast, parseSize } from '../../../src/attach/asciicast.js';
import { RECORDED_TERM, Recorder } from '../../../src/attach/recorder.js';

const dirs: string[] = [];
function tempFile(name = 'rec.cast'): string {
  const dir = mkdtempSync(join(tmpdir(), 'cast-'));
  dirs.push(dir);
  return join(dir, name);
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A recorder on a clock the test moves. */
function recorder(opts: { input?: boolean } = {}) {
  let now = 1000;
  const path = tempFile();
  const rec = new Recorder({ path, cols: 80, rows: 24, title: 'intern runner', now: () => now, timestamp: 1_790_000_000, ...opts });
  return { rec, path, tick: (ms: number) => (now += ms), read: () => parseCast(readFileSync(path, 'utf8')) };
}
const bytes = (s: string) => Buffer.from(s, 'utf8');

describe('the asciicast writer', () => {
  it('writes a v2 header with the size, the time, the title and TERM, to a 0600 file it will not overwrite', async () => {
    const { rec, path, read } = recorder();
    await rec.close();
    const first = JSON.parse(readFileSync(path, 'utf8').split('\n')[0]!) as Record<string, unknown>;
    expect(first).toEqual({ version: 2, width: 80, height: 24, timestamp: 1_790_000_000, title: 'intern runner', env: { TERM: RECORDED_TERM } });
    expect(read().events).toEqual([]);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(() => new Recorder({ path, cols: 80, rows: 24, title: 't' })).toThrow(/EEXIST/);
  });

  it('records every byte value: ASCII and controls exactly, each byte that is no UTF-8 as U+FFFD, and plays back as written', async () => {
    const { rec, read } = recorder();
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    rec.output(all, 0);
    await rec.close();
    const text = read().events.map((e) => e.data).join('');
    expect(text.slice(0, 128)).toBe(String.fromCharCode(...Array.from({ length: 128 }, (_, i) => i)));
    // 0x80-0xff alone are no UTF-8 character: each is one replacement character.
    expect(text.slice(128)).toBe('\ufffd'.repeat(128));
    // Every line is one line: no raw line break or control character inside an event.
    const raw = readFileSync(rec.path, 'utf8');
    expect(raw.split('\n').filter(Boolean)).toHaveLength(2);
    expect(raw).not.toMatch(/[\x00-\x09\x0b-\x1f]/);
  });

  it('keeps a character split across two messages whole', async () => {
    const { rec, read } = recorder();
    const euro = bytes('€ and 日本');
    rec.output(euro.subarray(0, 2), 0);
    rec.output(euro.subarray(2, 9), 2);
    rec.output(euro.subarray(9), 9);
    await rec.close();
    expect(read().events.map((e) => e.data).join('')).toBe('€ and 日本');
    expect(read().events.every((e) => !e.data.includes('\ufffd'))).toBe(true);
  });

  it('records a resume mid-stream once: what the daemon sends again adds nothing, and nothing is lost', async () => {
    const { rec, read } = recorder();
    rec.output(bytes('hello '), 0);
    rec.marker('resume');
    // Resumed from offset 3: "lo " again, then new output.
    rec.output(bytes('lo world'), 3);
    rec.output(bytes('world'), 6); // all of it had
    rec.output(bytes('!'), 11);
    await rec.close();
    const events = read().events;
    expect(events.filter((e) => e.code === 'o').map((e) => e.data).join('')).toBe('hello world!');
    expect(events.map((e) => e.code)).toEqual(['o', 'm', 'o', 'o']);
  });

  it('marks what it could not record (the daemon skipped ahead), and a terminal started again', async () => {
    const { rec, read } = recorder();
    rec.output(bytes('abc'), 0);
    rec.output(bytes('xyz'), 10);
    rec.restarted(0);
    rec.output(bytes('new'), 0);
    await rec.close();
    expect(read().events.map((e) => [e.code, e.data])).toEqual([
      ['o', 'abc'],
      ['m', 'gap: 7 bytes not recorded'],
      ['o', 'xyz'],
      ['m', 'restarted'],
      ['o', 'new'],
    ]);
  });

  it('times events from the start, and records resizes and markers', async () => {
    const { rec, tick, read } = recorder();
    rec.marker('attach');
    tick(1500);
    rec.output(bytes('$ '), 0);
    tick(250);
    rec.resize(100, 30);
    tick(1000);
    rec.marker('detach');
    await rec.close();
    expect(read().events).toEqual([
      { time: 0, code: 'm', data: 'attach' },
      { time: 1.5, code: 'o', data: '$ ' },
      { time: 1.75, code: 'r', data: '100x30' },
      { time: 2.75, code: 'm', data: 'detach' },
    ]);
  });

  it('records typed input only when asked to', async () => {
    const off = recorder();
    off.rec.input('secret\r');
    await off.rec.close();
    expect(off.read().events).toEqual([]);
    const on = recorder({ input: true });
    on.rec.input('ls\r');
    await on.rec.close();
    expect(on.read().events).toEqual([{ time: 0, code: 'i', data: 'ls\r' }]);
  });

  it('writes a flood in order and whole, waiting for its worker past a bound rather than holding more', async () => {
    const { rec, read } = recorder();
    // 12 MB at once, faster than any worker takes it: past 8 MiB handed over, the session's thread waits.
    const line = bytes(`${'x'.repeat(98)}\x1b\n`);
    let offset = 0;
    for (let i = 0; i < 120_000; i++) {
      rec.output(line, offset);
      offset += line.length;
    }
    expect(rec.waits).toBeGreaterThan(0);
    await rec.close();
    expect(rec.error).toBeUndefined();
    const out = read().events.map((e) => e.data).join('');
    expect(out.length).toBe(12_000_000);
    expect(out).toBe(line.toString().repeat(120_000));
  });
});

describe('the asciicast reader', () => {
  const header = '{"version":2,"width":80,"height":24}\n';
  it.each([
    ['an empty file', '', 'not an asciicast recording: its first line is not a JSON header'],
    ['a text file', 'hello world\n', 'not an asciicast recording: its first line is not a JSON header'],
    ['asciicast v1', '{"version":1,"width":80,"height":24,"stdout":[]}', 'not asciicast v2: its header says version 1'],
    ['asciicast v3', '{"version":3,"term":{"cols":80,"rows":24}}\n', 'not asciicast v2: its header says version 3'],
    ['a header without a size', '{"version":2}\n', 'not a usable asciicast v2 header: width and height must be whole numbers from 1 to 1000'],
    ['a line that is no event', `${header}{"a":1}\n[1, "o", "x"]\n`, 'line 2 of the recording is not an event ([time, code, data])'],
    ['a line of no JSON in the middle', `${header}[0.1, "o"\n[1, "o", "x"]\n`, 'line 2 of the recording is not JSON'],
    ['time going back', `${header}[2, "o", "a"]\n[1, "o", "b"]\n`, 'line 3 of the recording goes back in time (1 after 2)'],
    ['a JSON array for a header', '[1,2]\n', 'not an asciicast recording: its first line is not a JSON header'],
  ])('refuses %s in one line', (_, text, message) => {
    expect(() => parseCast(text)).toThrow(CastError);
    expect(() => parseCast(text)).toThrow(message);
  });

  it('reads events, passing over codes it does not know and a last line cut off', () => {
    const text = `${header}${encodeEvent(0.5, 'o', 'a\u001b[31m')}[0.6, "x", "future"]\n${encodeEvent(1, 'r', '90x30')}[1.2, "o", "cut`;
    expect(parseCast(text).events).toEqual([
      { time: 0.5, code: 'o', data: 'a\u001b[31m' },
      { time: 1, code: 'r', data: '90x30' },
    ]);
  });

  it('reads a resize\'s size, and nothing else', () => {
    expect(parseSize('100x30')).toEqual({ cols: 100, rows: 30 });
    for (const bad of ['100', '0x5', '100x30x2', 'x', '5000x10', ' 1x1']) expect(parseSize(bad)).toBeUndefined();
  });

  it('reads a file asciinema wrote', () => {
    const file = tempFile('asciinema.cast');
    writeFileSync(file, '{"version": 2, "width": 213, "height": 58, "timestamp": 1598429200, "env": {"SHELL": "/bin/bash", "TERM": "xterm-256color"}}\n[0.010491, "o", "$ "]\n[1.46131, "o", "e"]\n');
    const { header: h, events } = parseCast(readFileSync(file, 'utf8'));
    expect(h).toEqual({ version: 2, width: 213, height: 58, timestamp: 1598429200, env: { SHELL: '/bin/bash', TERM: 'xterm-256color' } });
    expect(events.map((e) => e.data).join('')).toBe('$ e');
  });
});
