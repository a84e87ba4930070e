/** The bytes a terminal sends for the keys tests press by name; anything else is sent as typed. */
export const KEYS: Record<string, string> = {
  enter: '\r',
  esc: '\x1b',
  tab: '\t',
  'shift+tab': '\x1b[Z',
  up: '\x1b[A',
  down: '\x1b[B',
  backspace: '\x7f',
  space: ' ',
  'ctrl+k': '\x0b',
  'ctrl+r': '\x12',
  'ctrl+s': '\x13',
  'ctrl+]': '\x1d',
  'ctrl+c': '\x03',
  'shift+pageup': '\x1b[5;2~',
  'shift+pagedown': '\x1b[6;2~',
};
