import { Text } from './Text.js';
import { useEffect, useState } from 'react';
import { theme } from '../theme.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** Every wait says what is being loaded. */
export function Spinner({ label }: { label: string }) {
  const [i, setI] = useState(0);
  useEffect(() => {
    const t = setInterval(() => setI((n) => (n + 1) % FRAMES.length), 100);
    return () => clearInterval(t);
  }, []);
  return (
    <Text>
      <Text color={theme.accent}>{FRAMES[i]}</Text> {label}…
    </Text>
  );
}
