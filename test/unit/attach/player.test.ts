import { describe, expect, it } from 'vitest';
import type { CastEvent } from '../../../src/attach/asciicast.js';
import { Player, timeline } from '../../../src/attach/player.js';
import { clock } from '../../../src/attach/asciicast.js';

const ev = (time: number, data: string, code: CastEvent['code'] = 'o'): CastEvent => ({ time, code, data });

async function until(ok: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

function player(events: CastEvent[], opts: { speed?: number; idleLimit?: number } = {}) {
  let out = '';
  let ended = 0;
  const p = new Player({ header: { version: 2, width: 40, height: 5 }, events, cols: 100, rows: 10, write: (s) => (out += s), title: 'intern runner', hint: 'space pause', onEnd: () => ended++, ...opts });
  return { p, out: () => out, clear: () => (out = ''), ended: () => ended };
}

describe('the player', () => {
  it('cuts pauses to the idle limit', () => {
    expect(timeline([ev(0.5, 'a'), ev(1, 'b'), ev(31, 'c'), ev(31.5, 'd')], 2)).toEqual([0.5, 1, 3, 3.5]);
    expect(timeline([ev(0.5, 'a'), ev(31, 'b')])).toEqual([0.5, 31]);
  });

  it('says time as m:ss, and h:mm:ss past an hour', () => {
    expect(clock(0)).toBe('0:00');
    expect(clock(75.9)).toBe('1:15');
    expect(clock(3723)).toBe('1:02:03');
  });

  it('plays through the emulator: the recording\'s control sequences never reach the terminal, its text does', async () => {
    const { p, out, ended } = player([ev(0, '\x1b]0;evil title\x07\x1b]52;c;ZXZpbA==\x07'), ev(0.01, '\x1b[?1049h\x1b[31mhello\x1b[0m'), ev(0.02, '\r\nworld')], { speed: 10 });
    p.start();
    await until(() => ended() === 1 && out().includes('world'), 'the end');
    p.dispose();
    expect(out()).toContain('hello');
    expect(out()).toContain('\x1b[0;31mhello');
    for (const raw of [']0;evil', ']52;', '?1049h']) expect(out()).not.toContain(raw);
    // The status line: title, position, length, state, the keys.
    expect(out()).toMatch(/intern runner │ 0:00 \/ 0:00 │ ended \(space plays again\) │ space pause/);
    // Autowrap is put back on.
    expect(out().endsWith('\x1b[0m\x1b[?7h\x1b[?25h')).toBe(true);
  });

  it('pauses, and seeks forward and back (back starting the emulator afresh)', async () => {
    const events = Array.from({ length: 30 }, (_, i) => ev(i, `\r\nline ${i}`));
    const { p, out, clear } = player(events);
    p.start();
    p.togglePause();
    expect(p.paused).toBe(true);
    p.seek(10);
    await until(() => out().includes('line 10'), 'line 10');
    expect(out()).not.toContain('line 11');
    expect(p.at).toBeCloseTo(10, 1);
    clear();
    p.seek(-5);
    await until(() => out().includes('line 5'), 'line 5 after seeking back');
    expect(out()).not.toContain('line 6');
    expect(p.at).toBeCloseTo(5, 1);
    p.dispose();
  });

  it('seeks back while playing to what the recording showed then, however long it has played', async () => {
    const events = [ev(0, 'first'), ev(0.3, '\x1b[2J\x1b[Hsecond'), ev(30, 'third')];
    const { p, out, clear } = player(events);
    p.start();
    await until(() => out().includes('second'), 'the second event');
    clear();
    p.seek(-5);
    await until(() => out().includes('first'), 'the first screen again');
    expect(out()).not.toContain('second');
    p.dispose();
  });
});
