import { describe, expect, it } from 'vitest';
import { withoutScreenSwitches } from '../../../src/attach/screens.js';

const run = (text: string) => {
  const r = withoutScreenSwitches(Buffer.from(text, 'latin1'));
  return { text: Buffer.from(r.data).toString('latin1'), switched: r.switched };
};

describe('withoutScreenSwitches', () => {
  it.each([
    ['\x1b[?1049hvim\x1b[?1049l$ ', 'vim$ '],
    ['a\x1b[?47hb\x1b[?47lc', 'abc'],
    ['\x1b[?1047h\x1b[?1047l', ''],
  ])('takes the switches out of %j', (text, want) => {
    expect(run(text)).toEqual({ text: want, switched: true });
  });

  it('keeps the other modes of a sequence that also switches screens', () => {
    expect(run('\x1b[?1049;25h.\x1b[?25;1049;1l')).toEqual({ text: '\x1b[?25h.\x1b[?25;1l', switched: true });
  });

  it.each([
    ['other private modes', '\x1b[?25l\x1b[?2004h\x1b[?1000h'],
    ['a mode that is not private', '\x1b[1049h\x1b[47l'],
    ['another final byte', '\x1b[?1049m'],
    ['a switch cut off by the end of the chunk', 'text\x1b[?104'],
    ['text alone', 'plain text\r\n'],
  ])('leaves %s alone', (_what, text) => {
    expect(run(text)).toEqual({ text, switched: false });
  });

  it('hands back the same bytes when there is nothing to take out', () => {
    const data = Buffer.from('\x1b[31mred\x1b[0m');
    expect(withoutScreenSwitches(data).data).toBe(data);
  });
});
