/** The `:` palette: a line parsed and suggested from the command registry. */
import { Box } from 'ink';
import { Text } from './Text.js';
import { useState } from 'react';
import { COMMANDS, resolveCommand, suggest, usage, type ResolvedCommand } from '../commands.js';
import { useKeys } from '../hooks/useKeys.js';
import { matches } from '../keymap.js';
import { theme } from '../theme.js';
import { TextField } from './TextField.js';

export function CommandPalette({ onRun, onClose }: { onRun: (c: ResolvedCommand) => void; onClose: () => void }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  useKeys((input, key) => {
    if (matches('dismiss', input, key)) onClose();
  });
  const submit = (line: string) => {
    const resolved = resolveCommand(line);
    if ('error' in resolved) return setError(resolved.error);
    onRun(resolved);
  };
  const suggestions = suggest(text);
  return (
    <Box flexDirection="column" flexShrink={0} borderStyle="round" borderColor={theme.accent} paddingX={1}>
      <TextField label=":" labelWidth={4} value={text} onChange={(v) => { setText(v); setError(null); }} focused error={error} onSubmit={submit} />
      {/* A command and its argument are joined by no-break spaces, so a wrap never parts them ("profile" / "PROFILE"). */}
      <Text color={theme.muted}>{(suggestions.length > 0 ? suggestions : COMMANDS).map((c) => usage(c).replaceAll(' ', '\u00a0')).join('   ')}</Text>
    </Box>
  );
}
