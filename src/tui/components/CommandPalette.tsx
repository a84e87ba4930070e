import { Box, Text } from 'ink';
import { useState } from 'react';
import { useKeys } from '../hooks/useKeys.js';
import { theme } from '../theme.js';
import { TextField } from './TextField.js';

export const COMMANDS = ['interns', 'new', 'byok', 'vault', 'attach NAME', 'chat NAME', 'quit'] as const;

export type PaletteCommand =
  | { kind: 'interns' }
  | { kind: 'new' }
  | { kind: 'byok' }
  | { kind: 'vault' }
  | { kind: 'attach'; name: string }
  | { kind: 'chat'; name: string }
  | { kind: 'quit' };

export function parsePaletteCommand(text: string): PaletteCommand | { error: string } {
  const [word = '', ...rest] = text.trim().split(/\s+/);
  const arg = rest.join(' ');
  if ('interns'.startsWith(word) && word) return { kind: 'interns' };
  if ('byok'.startsWith(word) && word) return { kind: 'byok' };
  if (word === 'q' || ('quit'.startsWith(word) && word)) return { kind: 'quit' };
  if (word === 'new' || word === 'create') return { kind: 'new' };
  if (word && 'vault'.startsWith(word)) return { kind: 'vault' };
  if (word === 'chat' || word === 'talk' || (word && 'chat'.startsWith(word) && arg)) {
    if (!arg) return { error: 'chat needs an intern name: chat NAME' };
    return { kind: 'chat', name: arg };
  }
  if (word === 'attach' || (word && 'attach'.startsWith(word) && arg)) {
    if (!arg) return { error: 'attach needs an intern name: attach NAME' };
    return { kind: 'attach', name: arg };
  }
  return { error: `unknown command "${text.trim().slice(0, 40)}"; try ${COMMANDS.join(', ')}` };
}

export function CommandPalette({ onRun, onClose }: { onRun: (c: PaletteCommand) => void; onClose: () => void }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  useKeys((_input, key) => {
    if (key.escape) return onClose();
    if (key.return) {
      const parsed = parsePaletteCommand(text);
      if ('error' in parsed) return setError(parsed.error);
      onRun(parsed);
    }
  });
  const suggestions = COMMANDS.filter((c) => c.startsWith(text.trim().split(/\s+/)[0] ?? ''));
  return (
    <Box flexDirection="column" flexShrink={0} borderStyle="round" borderColor={theme.accent} paddingX={1}>
      <TextField label=":" labelWidth={4} value={text} onChange={(v) => { setText(v); setError(null); }} focused error={error} />
      <Text color={theme.muted}>{suggestions.join('   ') || COMMANDS.join('   ')}   (enter runs, esc closes)</Text>
    </Box>
  );
}
