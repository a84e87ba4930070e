/**
 * A filterable picker over a long list (models, providers, interns, secrets): type to filter,
 * arrows to move, enter to pick, esc to close; it opens on the field's current value, marked •
 * (enter keeps it, as in every picker people know); with `multi`, tab marks rows and enter picks the
 * marked ones (the screen declares the `chooserMulti` scope beside `chooser`, for the footer).
 * Custom rather than ink-select-input: that package neither filters nor pages a list of hundreds
 * of rows in a fixed height, and it has no multi-select.
 */
import { Box, type DOMElement } from 'ink';
import { Text } from './Text.js';
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useKeys } from '../hooks/useKeys.js';
import { useSort } from '../hooks/useSort.js';
import { sortText, type Sortable, type Ties } from '../state/sort.js';
import { useMouse } from '../hooks/useMouse.js';
import { WHEEL_ROWS } from '../mouse.js';
import { matches } from '../keymap.js';
import { sanitize } from '../../text.js';
import { type FilterField, type RowMatch, fuzzyFilter } from '../fuzzy.js';
import { MarkedCell } from './MarkedCell.js';
import { theme } from '../theme.js';
import { TextField } from './TextField.js';

export interface PickerItem {
  /** What is picked (a model id, a provider slug, an intern id, or null for "workspace default"). */
  value: string | null;
  label: string;
  /** A muted second column (context length, prices...). */
  detail?: string;
  /** Extra text the filter matches. */
  search?: string;
  /** Values its picker's sort columns read (a model's context length, its price), by column. */
  sortBy?: Readonly<Record<string, string | number | null>>;
}

export interface PickerProps {
  title: string;
  items: PickerItem[];
  /** Picked rows (one, or the marked ones with `multi`). */
  onPick: (picked: PickerItem[]) => void;
  onClose: () => void;
  /**
   * The typed text may be picked itself (a slug the catalogue lacks), when this rule (the field's
   * own: the contract's check) accepts it; a text it refuses is shown with why, not offered, so the
   * picker never hands the form a value the form then marks wrong.
   */
  allowTyped?: (typed: string) => string | null;
  /** What the row of the typed text says of it: where the value was not found. */
  typedDetail?: string;
  multi?: boolean;
  /** The value the field holds now: its row is marked, and the cursor opens on it. */
  current?: string | null;
  height?: number;
  width?: number;
  loading?: boolean;
  note?: string | null;
  active?: boolean;
  /**
   * The picker's sort (^o, ^r): the name its choice is kept under for the profile, and its columns
   * (by default the label alone). Rows with no value (workspace default) stay first.
   */
  sortList?: string;
  sortColumns?: readonly Sortable<PickerItem>[];
}

const BY_LABEL: readonly Sortable<PickerItem>[] = [{ header: 'NAME', sort: { kind: 'text', by: (i) => i.label } }];
const PICKER_TIES: Ties<PickerItem> = { name: (i) => i.label, id: (i) => i.value ?? '' };

/** What the picker's filter matches: the label and the detail as drawn, and the value and search text, drawn nowhere. */
const pickerFields = (i: PickerItem): FilterField[] => [
  { text: i.label, column: 'label' },
  { text: i.detail ?? '', column: 'detail' },
  { text: i.value ?? '', column: 'detail', hidden: 'id' },
  { text: i.search ?? '', column: 'detail', hidden: 'matched' },
];

/** The rows the filter leaves, best first, with what each matched (the TUI's one filter model). */
export function filterItems(items: readonly PickerItem[], filter: string, keepOrder = false): RowMatch<PickerItem>[] {
  return fuzzyFilter(items, filter, pickerFields, { keepOrder });
}

export function Picker(props: PickerProps) {
  const { onPick, onClose, allowTyped, multi = false, active = true, current } = props;
  // A value the field holds that the list lacks (a slug typed into the field) is a row of its own,
  // first: the picker opens on it and enter keeps it, rather than on the list's first row, which
  // enter would have put in its place.
  const items = useMemo(
    () =>
      typeof current === 'string' && current !== '' && !props.loading && !props.items.some((i) => i.value === current)
        ? [{ value: current, label: current, detail: 'what the field holds · not in the list' }, ...props.items]
        : props.items,
    [current, props.loading, props.items],
  );
  const [filter, setFilter] = useState('');
  // Null until the cursor is moved or a filter typed: it stands on the current row, which may
  // arrive after the picker opened (the catalogue loads while it shows).
  const [index, setIndex] = useState<number | null>(null);
  const [marked, setMarked] = useState<Set<string | null>>(new Set());
  const typed = filter.trim();
  // Sorted when the items or the sort change; the rows with no value (workspace default, the
  // field's own value) first, where they were.
  const pinned = useMemo(() => items.filter((i, n) => i.value === null || (n === 0 && items !== props.items)), [items, props.items]);
  const rest = useMemo(() => (pinned.length === 0 ? items : items.filter((i) => !pinned.includes(i))), [items, pinned]);
  const sort = useSort(props.sortList ?? 'picker', props.sortColumns ?? BY_LABEL, PICKER_TIES, rest, { picker: true });
  const ordered = useMemo(() => (pinned.length === 0 ? sort.rows : [...pinned, ...sort.rows]), [pinned, sort.rows]);
  const found = useMemo(() => filterItems(ordered, filter, sort.spec !== null), [ordered, filter, sort.spec]);
  const matched = useMemo(() => found.map((m) => m.row), [found]);
  const marksOf = (item: PickerItem) => found.find((m) => m.row === item)?.marks;
  // A slug the catalogue lacks can still be picked as typed: the last row offers it, if the rule
  // takes it; if not, a line under the rows says why.
  const typedError = allowTyped && typed && !matched.some((m) => m.value === typed) ? allowTyped(typed) : null;
  const shown = allowTyped && typed && typedError === null && !matched.some((m) => m.value === typed)
    ? [...matched, { value: typed, label: `keep "${typed}" as typed`, detail: props.typedDetail ?? 'not in the catalogue' }]
    : matched;
  const height = Math.max(3, props.height ?? 8);
  const isCurrent = (item: PickerItem) => current !== undefined && item.value === current;
  const at = Math.min(index ?? Math.max(0, shown.findIndex(isCurrent)), Math.max(0, shown.length - 1));
  // A row to put the cursor back on once the new order is drawn (^o, ^r).
  const [follow, setFollow] = useState<string | null | undefined>(undefined);
  const shownNow = useRef(shown);
  shownNow.current = shown;
  useLayoutEffect(() => {
    if (follow === undefined) return;
    const to = shownNow.current.findIndex((i) => i.value === follow);
    setFollow(undefined);
    if (to >= 0) setIndex(to);
  }, [follow]);

  const pick = (row: PickerItem | undefined) => {
    if (multi) {
      const picked = items.filter((i) => marked.has(i.value));
      return onPick(picked.length > 0 ? picked : row ? [row] : []);
    }
    if (row) onPick([row]);
  };
  useKeys((input, key) => {
    if (matches('chooserClose', input, key)) return onClose();
    if (sort.handleKey(input, key)) {
      // The cursor stays on its row in the new order.
      const row = shown[at];
      if (row) setFollow(row.value);
      return;
    }
    if (matches('chooserUp', input, key)) return setIndex(Math.max(0, at - 1));
    if (matches('chooserDown', input, key)) return setIndex(Math.min(shown.length - 1, at + 1));
    if (matches('chooserPageUp', input, key)) return setIndex(Math.max(0, at - height));
    if (matches('chooserPageDown', input, key)) return setIndex(Math.max(0, Math.min(shown.length - 1, at + height)));
    if (multi && matches('chooserMark', input, key)) {
      const row = shown[at];
      if (!row) return;
      const next = new Set(marked);
      if (next.has(row.value)) next.delete(row.value);
      else next.add(row.value);
      return setMarked(next);
    }
    if (matches('chooserPick', input, key)) return pick(shown[at]);
  }, active);

  const start = Math.max(0, Math.min(at - Math.floor(height / 2), shown.length - height));
  const visible = shown.slice(start, start + height);
  // The mouse: a click selects a row, a double-click on it picks (as enter), the wheel moves.
  const rowsBox = useRef<DOMElement>(null);
  useMouse(rowsBox, (e) => {
    if (e.type === 'wheel' && (e.wheel === 'up' || e.wheel === 'down')) return setIndex(Math.max(0, Math.min(shown.length - 1, at + (e.wheel === 'up' ? -WHEEL_ROWS : WHEEL_ROWS))));
    if (e.type !== 'press' || e.button !== 0 || e.y >= visible.length) return;
    const clicked = start + e.y;
    if (e.clicks >= 2 && clicked === at) return pick(shown[clicked]);
    setIndex(clicked);
  }, active);
  const width = props.width ?? 76;
  const labelWidth = Math.min(40, Math.max(16, Math.floor(width * 0.45)));
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.accent} paddingX={1} flexShrink={0}>
      <Text bold color={theme.accent}>
        {props.title} <Text color={theme.muted}>({matched.length} of {items.length}{multi ? `, ${marked.size} marked` : ''}){items.some(isCurrent) ? ' · • current' : ''}{sort.spec ? ` · sorted by ${sortText(sort.spec)}` : ''}</Text>
      </Text>
      <TextField label="filter" labelWidth={10} value={filter} onChange={(v) => { setFilter(v); setIndex(0); }} focused={active} placeholder="type to filter" />
      {props.loading ? <Text color={theme.muted}>loading…</Text> : null}
      <Box ref={rowsBox} flexDirection="column">
        {visible.map((item, n) => {
          const selected = start + n === at;
          const marks = marksOf(item);
          const detail = marks?.get('detail');
          return (
            <Box key={`${item.value ?? '\0null'}`}>
              <Box flexShrink={0}>
                <Text inverse={selected} color={selected ? theme.selection : undefined}>
                  {selected ? '›' : ' '}
                </Text>
                {multi ? <Text color={theme.accent}>{marked.has(item.value) ? '[x] ' : '[ ] '}</Text> : <Text color={theme.accent}>{isCurrent(item) ? '•' : ' '}</Text>}
                <Text bold={selected}>
                  <MarkedCell text={sanitize(item.label)} positions={marks?.get('label')?.positions} width={labelWidth} />
                </Text>
              </Box>
              {item.detail || detail?.text ? (
                <Box flexShrink={1}>
                  <Text color={theme.muted} wrap="truncate-end">
                    {' '}
                    <MarkedCell text={detail?.text ?? sanitize(item.detail ?? '')} positions={detail?.positions} />
                  </Text>
                </Box>
              ) : null}
            </Box>
          );
        })}
      </Box>
      {shown.length === 0 && typedError === null ? (
        <Text color={theme.muted}>nothing matches</Text>
      ) : null}
      {typedError !== null ? (
        <Text color={theme.error} wrap="truncate-end">
          "{sanitize(typed)}" cannot be kept as typed: it {typedError}
        </Text>
      ) : null}
      {/* The keys are the footer's (the chooser scopes); a note says where the rows came from. */}
      {props.note ? (
        <Text color={theme.muted} wrap="truncate-end">
          {props.note}
        </Text>
      ) : null}
    </Box>
  );
}
