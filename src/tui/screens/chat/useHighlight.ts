/** The chat's code colours: none until a code block names a language, then highlight.js's, once it has loaded (src/tui/highlight.ts). */
import { useEffect, useState } from 'react';
import { loadedHighlighter, onHighlighterReady, wantHighlighter } from '../../highlightLoader.js';
import type { LayoutOptions } from './transcript.js';

export function useHighlight(): Pick<LayoutOptions, 'highlight' | 'onLang'> {
  const [highlight, setHighlight] = useState(loadedHighlighter);
  useEffect(() => (highlight ? undefined : onHighlighterReady(() => setHighlight(loadedHighlighter))), [highlight]);
  return highlight ? { highlight } : { onLang: () => void wantHighlighter() };
}
