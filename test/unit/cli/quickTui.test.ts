/**
 * main.ts runs an empty command line through tuiEntry.ts's quickTui, not dispatch.ts: the TUI with no flags,
 * on the sandbox only if the rule says so. That shortcut holds only while the parser reads an
 * empty command line the same way.
 */
import { expect, test } from 'vitest';
import { parseCommand } from '../../../src/cli/args.js';

test('an empty command line is the TUI with no flags, as quickTui runs it', () => {
  expect(parseCommand([])).toEqual({ kind: 'tui', flags: {}, forceSandbox: false });
});
