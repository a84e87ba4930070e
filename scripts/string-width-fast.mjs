// What the bundle gives Ink, cli-truncate, widest-line and src/text.ts for string-width 8
// (the stringWidthFast plugin in bundling.mjs): the same widths, but text of printable ASCII and
// simple BMP characters (box drawing, punctuation, most scripts, CJK) is measured from a table
// built at build time from string-width itself (string-width-core.mjs). The real module loads on
// the first string the table cannot answer for: loading it costs about 50 ms (its \p{RGI_Emoji}
// regex alone about 35 ms), and its per-grapheme path made a full frame of box-drawing lines slow.
import stripAnsi from 'strip-ansi';
import { createStringWidth } from './string-width-core.mjs';
import { SIMPLE_WIDTH_RUNS } from 'string-width-table';

// require(), not import: esbuild then initialises the real module on this call, not at start-up.
// eslint-disable-next-line @typescript-eslint/no-require-imports
export default createStringWidth(SIMPLE_WIDTH_RUNS, () => require('string-width-real').default, stripAnsi);
