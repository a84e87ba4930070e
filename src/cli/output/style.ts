/** Colours: the tones output is drawn in, when they are drawn, and a status's tone. */

export type Tone = 'green' | 'yellow' | 'red' | 'dim' | 'bold';
export const SGR: Record<Tone, [string, string]> = {
  green: ['\x1b[32m', '\x1b[39m'],
  yellow: ['\x1b[33m', '\x1b[39m'],
  red: ['\x1b[31m', '\x1b[39m'],
  dim: ['\x1b[2m', '\x1b[22m'],
  bold: ['\x1b[1m', '\x1b[22m'],
};
/** On a light background yellow is unreadable: what it says (on its way, going away) is drawn magenta, as the TUI's light theme does. */
export const LIGHT_SGR: Record<Tone, [string, string]> = { ...SGR, yellow: ['\x1b[35m', '\x1b[39m'] };

/** Text in a tone, or as it is where colours are off (Output.paint). */
export type Paint = (s: string, tone: Tone | undefined) => string;

/**
 * Colour forced where stdout is no terminal: `CLICOLOR_FORCE` or `FORCE_COLOR` set to anything but
 * empty or 0 (the conventions of BSD's ls and of chalk). NO_COLOR and --no-color win over both.
 */
export const forceColorFromEnv = (env: NodeJS.ProcessEnv): boolean => [env.CLICOLOR_FORCE, env.FORCE_COLOR].some((v) => v !== undefined && v !== '' && v !== '0');

export const statusTone = (s: string): Tone | undefined =>
  /^(running|ready|active|enabled)$/.test(s) ? 'green' : /^(queued|provisioning|destroying|suspended|pending)$/.test(s) ? 'yellow' : /fail|error/.test(s) ? 'red' : undefined;
