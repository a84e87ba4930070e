/** A single-line TextField beside its message on a narrow terminal: the value keeps its width. */
import { afterEach, describe, expect, it } from 'vitest';
import { Box } from 'ink';
import { cleanup, render } from 'ink-testing-library';
import { TextField } from '../../src/tui/components/TextField.js';
import { KeysProvider } from '../../src/tui/hooks/useKeys.js';
import { waitForFrame } from './render.js';

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

  it('wraps an error to be read whole, and still keeps the value whole', async () => {
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
