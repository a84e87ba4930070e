/**
 * The screens loaded on first use (components/onFirstUse.tsx) that this session opened, by name:
 * the CLI saves the code cache again when a session ran one the cache was not written with
 * (src/codeCache.ts). A leaf that imports nothing: tuiEntry.ts exports `usedScreens` for
 * tuiBundle.ts, and through onFirstUse.tsx it had imported Ink, React and yoga, which dist/tui.cjs
 * then ran before the first screen's requests went out.
 */
const used = new Set<string>();

export function noteScreenUsed(name: string): void {
  used.add(name);
}

export function usedScreens(): string[] {
  return [...used];
}
