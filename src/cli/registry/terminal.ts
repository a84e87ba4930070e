/**
 * An intern's terminal: attach, and replay of a recording, in the order help lists them. Data
 * only: each names its module and runner, and the dispatcher loads them (loaders.ts).
 */
import { DETACH_NAME } from '../../attach/detach.js';
import type { CommandSpec } from '../spec.js';
import { IDN } from './flags.js';

export const TERMINAL: CommandSpec[] = [
  // ── attach ──
  {
    noun: 'attach',
    args: 'NAME',
    // The second is --record's FILE (attach.ts refuses it without --record).
    positionals: [1, 2],
    flags: {
      record: { type: 'boolean', value: '[FILE]', description: 'record the session (asciicast v2) to FILE, else under the state folder' },
      'record-input': { type: 'boolean', description: 'with --record: record typed input too (it can hold passwords)' },
    },
    summary: `the intern's terminal, full screen (${DETACH_NAME} detaches)`,
    details: [
      `${IDN}.`,
      "The remote's output reaches this terminal as its programs wrote it (the lines of a flood",
      `that scroll off unseen are left out); resizing this terminal resizes the remote. ${DETACH_NAME} detaches`,
      '(the shell keeps running); when the remote exits, the command ends. Needs an interactive',
      'terminal and an OAuth token (daemon access is personal).',
      'With --record (or the profile\'s "record": "always"), the daemon\'s output is written as it comes',
      'to an asciicast v2 file: $XDG_STATE_HOME/intern-tui/recordings/NAME-TIME.cast unless FILE is given;',
      '`intern-tui replay FILE` or asciinema plays it.',
      'Examples:',
      '  intern-tui attach runner',
      '  intern-tui attach runner --record session.cast',
    ].join('\n'),
    needs: ['oauth_token'],
    module: 'attach',
    runner: 'attach',
  },
  {
    noun: 'replay',
    args: 'FILE',
    positionals: [1, 1],
    summary: 'play a recording (asciicast v2) in this terminal',
    flags: {
      speed: { type: 'string', value: 'N', description: 'play N times as fast (0.5 is half speed)' },
      'idle-limit': { type: 'string', value: 'SECONDS', description: 'play pauses longer than this as this long' },
    },
    details: [
      'Plays an attach recording (attach --record) or any asciicast v2 file at its own pace, through',
      'the terminal emulator: its control sequences are drawn, never passed to this terminal raw.',
      'space pauses and plays, left and right seek 5 seconds, q quits. A file that is not asciicast v2',
      'is refused in one line (exit 1).',
      'Examples:',
      '  intern-tui replay ~/.local/state/intern-tui/recordings/runner-2026-11-28T12-59-03Z.cast',
      '  intern-tui replay session.cast --speed 2 --idle-limit 1',
    ].join('\n'),
    needs: [],
    module: 'replay',
    runner: 'replay',
  },
];
