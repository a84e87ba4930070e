/** A single-line TextField beside its message on a narrow terminal: the value keeps its width. */
import { afterEach, describe, expect, it } from 'vitest';
import { Box, Text } from 'ink';
import { cleanup, render } from 'ink-testing-library';
import { TextField } from '../../src/tui/components/TextField.js';
import { KeysProvider } from '../../src/tui/hooks/useKeys.js';
import { waitForFrame } from './render.js';
import { widthOf } from '../../src/text.js';

afterEach(() => cleanup());

const field = (props: { value: string; note?: string; error?: string | null; placeholder?: string }) =>
  render(
    <KeysProvider>
      <Box width={40}>
        <TextField label="name" value={props.value} note={props.note} error={props.error} placeholder={props.placeholder} focused={false} onChange={() => undefined} />
      </Box>
    </KeysProvider>,
  );

describe('TextField on a narrow terminal', () => {
  it('cuts a note that does not fit and keeps the value whole, on one line', async () => {
    const r = field({ value: 'runner', note: '2-17 chars: a-z 0-9, hyphen-separated, starts with a letter' });
    const f = await waitForFrame(r, 'runner');
    expect(f.split('\n')).toHaveLength(1);
    expect(f).toMatch(/name +runner +2-17 chars.*…$/);
  });

  it('puts an error that does not fit beside the value under it, to be read whole, and keeps the value whole', async () => {
    const error = 'must be lowercase letters and digits in hyphen-separated groups';
    const r = field({ value: 'runnerX', error });
    const f = await waitForFrame(r, 'runnerX');
    expect(f.split('\n').length).toBeGreaterThan(1);
    expect(f.replace(/\s+/g, ' ')).toContain(error);
  });

  it('shrinks an empty field\'s placeholder before the error beside it, which keeps its words whole', async () => {
    const r = field({ value: '', placeholder: 'the raw provider key (never shown)', error: 'the key is required' });
    const f = await waitForFrame(r, '✖');
    expect(f).toMatch(/\brequired\b/);
    expect(f).toMatch(/\bthe key is\b/);
  });
});

describe('TextField at every width', () => {
  const description = 'Keeps the CI green and answers questions about the build.';
  const at = (width: number, props: { value: string; note?: string; error?: string; placeholder?: string; focused?: boolean }) =>
    render(
      <KeysProvider>
        <Box width={width} flexDirection="column">
          <TextField label="description" value={props.value} note={props.note} error={props.error} placeholder={props.placeholder} focused={props.focused ?? true} onChange={() => undefined} />
          <Box>{/* the next row */}</Box>
        </Box>
      </KeysProvider>,
    );

  it('never draws a row wider than its box, which the terminal would wrap, pushing the top line off the screen', async () => {
    // Ink shared the shortfall between the value and its note in fractions and rounded each box on
    // its own: at 59, 62, 65, 67-71, 73, 76 and 79 columns the row came out a cell too wide.
    for (let width = 30; width <= 90; width++) {
      for (const props of [
        { value: description, note: `${description.length}/2000` },
        { value: 'anthropic/claude-sonnet-4', note: 'author/slug[:variant] · enter/^p picks' },
        { value: '', placeholder: 'workspace default', note: 'empty: workspace default · enter/^p picks' },
        { value: 'runnerX', error: 'must be lowercase letters and digits in hyphen-separated groups' },
      ]) {
        const r = at(width, props);
        const f = await waitForFrame(r, (frame) => frame.includes('description'));
        const wide = f.split('\n').filter((line) => widthOf(line) > width);
        expect(wide, `${width} columns, ${JSON.stringify(props)}:\n${f}`).toEqual([]);
        r.unmount();
      }
    }
  });

  it('keeps a short note whole and cuts the value for it, where the value keeps 20 cells', async () => {
    const r = at(79, { value: description, note: '57/2000' });
    const f = await waitForFrame(r, '57/2000');
    expect(f.split('\n')[0]).toMatch(/^› description +….*the build\. +57\/2000$/);
  });

  it('puts an error below the value when too little is left beside it to read it', async () => {
    const error = 'must be lowercase letters and digits in hyphen-separated groups';
    const r = at(40, { value: 'a-name-of-twenty-two', error });
    const f = await waitForFrame(r, '✖');
    const lines = f.split('\n');
    expect(lines[0]).toMatch(/a-name-of-twenty-two *$/);
    expect(lines.slice(1).join(' ').replace(/\s+/g, ' ')).toContain(`✖ ${error}`);
    // Its lines after the first under its words, none starting with the space it broke at.
    expect(lines[1]).toMatch(/^ {2}✖ \S/);
    expect(lines[2]).toMatch(/^ {4}\S/);
  });
});

describe('TextField below a clipping edge', () => {
  it('is not drawn past the edge of a box that clips it (Ink clips by the innermost box alone)', async () => {
    const r = render(
      <KeysProvider>
        <Box flexDirection="column" width={40}>
          <Box flexDirection="column" height={2} overflowY="hidden">
            <Box flexDirection="column" flexShrink={0}>
              {['one', 'two', 'three', 'four'].map((v) => (
                <TextField key={v} label={`f-${v}`} value={v} focused={false} onChange={() => undefined} />
              ))}
            </Box>
          </Box>
          <Text>footer</Text>
        </Box>
      </KeysProvider>,
    );
    // After the fields have measured their rows (the first frame clips each row, as before).
    await waitForFrame(r, 'footer');
    await new Promise((res) => setTimeout(res, 50));
    const f = r.lastFrame() ?? '';
    expect(f).toContain('f-one');
    expect(f).toContain('f-two');
    expect(f).not.toMatch(/three|four/);
  });
});
