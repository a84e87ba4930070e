/**
 * What a mistyped word was meant to be (a command, a flag, a status, an intern's or a key's
 * name): the one of `candidates` at most one edit away (a letter added, dropped or changed, or
 * two side by side swapped), two for words of five letters or more; null when none is that
 * close, or two are equally close. Pure, with no imports: the CLI's start path loads it.
 */
export function closest(word: string, candidates: readonly string[]): string | null {
  const limit = word.length >= 5 ? 2 : 1;
  let best: string | null = null;
  let bestDistance = Infinity;
  let tie = false;
  for (const c of new Set(candidates)) {
    const d = editDistance(word, c);
    if (d > limit) continue;
    if (d < bestDistance) {
      [best, bestDistance, tie] = [c, d, false];
    } else if (d === bestDistance) tie = true;
  }
  return tie || bestDistance === 0 ? null : best;
}

/** Edits between two words: letters added, dropped or changed, and two side by side swapped (optimal string alignment). */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}
