/** Display helpers shared by screens. */
export function relativeTime(iso: string, now = Date.now()): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '?';
  const s = Math.round((now - t) / 1000);
  const abs = Math.abs(s);
  const [n, unit] =
    abs < 60 ? [abs, 's'] : abs < 3600 ? [Math.floor(abs / 60), 'm'] : abs < 86400 ? [Math.floor(abs / 3600), 'h'] : [Math.floor(abs / 86400), 'd'];
  return s >= 0 ? `${n}${unit} ago` : `in ${n}${unit}`;
}
