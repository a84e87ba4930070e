/**
 * The detach key, in the two forms it takes: the byte the outer terminal sends, and the name
 * people read (the attach status bar, the TUI's keymap, the CLI's help). Its own module, so that
 * the CLI's registry names it without loading the attach decoder.
 */
export const DETACH = '\x1d';
export const DETACH_NAME = 'ctrl+]';
