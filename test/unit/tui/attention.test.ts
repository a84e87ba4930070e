/** The attention signal's sequences and the `notify` setting that picks one. */
import { describe, expect, it } from 'vitest';
import { ConfigFileSchema } from '../../../src/cli/config.js';
import { attention } from '../../../src/tui/terminal.js';

describe('attention', () => {
  it('is the bell, OSC 9, OSC 777 (a ; in its title is not a separator) or nothing', () => {
    expect(attention('bell', 'intern-tui', 'runner asks')).toBe('\x07');
    expect(attention('osc9', 'intern-tui', 'runner asks')).toBe('\x1b]9;intern-tui: runner asks\x07');
    expect(attention('osc777', 'a;b', 'runner asks')).toBe('\x1b]777;notify;a,b;runner asks\x07');
    expect(attention('off', 'intern-tui', 'runner asks')).toBe('');
  });

  it('is set per profile in the config file, and an unknown kind is refused', () => {
    expect(ConfigFileSchema.parse({ profiles: { work: { notify: 'osc9' } } }).profiles.work!.notify).toBe('osc9');
    expect(ConfigFileSchema.safeParse({ profiles: { work: { notify: 'loud' } } }).success).toBe(false);
  });
});
