/** The intern list's columns (how each cell draws and sorts), its filter's fields and its status filters. */
import { NO_MODEL, type Intern } from '../../contract/intern.js';
import type { Column } from '../components/Table.js';
import { statusColor, statusLabel } from '../components/StatusBadge.js';
import type { FilterField } from '../fuzzy.js';
import { STATUS_ORDER } from '../lifecycle.js';
import type { Ties } from '../state/sort.js';
import { sanitize } from '../../text.js';
import { theme } from '../theme.js';
import { timeText } from '../times.js';

/** What `f` steps through: all, then the statuses in the order a person looks for them (running, then the failures). */
export const STATUS_FILTERS: (string | null)[] = [null, ...STATUS_ORDER];
export const COLUMNS: Column<Intern>[] = [
  { header: '', width: 1, tight: true, cell: (i) => (i.created_by_you ? '★' : ' ') },
  { header: 'NAME', width: 18, fit: true, cell: (i) => sanitize(i.name), sort: { kind: 'text', by: (i) => i.name, key: 'sortName' } },
  { header: 'STATUS', width: 24, fit: true, cell: (i) => statusLabel(i.status), color: (i) => statusColor(i.status), sort: { kind: 'status', by: (i) => i.status, key: 'sortStatus' } },
  { header: 'MODEL', min: 12, grow: 11, cell: (i) => (i.model ? sanitize(i.model) : NO_MODEL), color: (i) => (i.model ? undefined : theme.muted), sort: { kind: 'text', by: (i) => i.model, key: 'sortModel' } },
  { header: 'HOSTNAME', min: 0, grow: 9, cell: (i) => sanitize(i.hostname ?? '—'), color: () => theme.muted, sort: { kind: 'text', by: (i) => i.hostname, key: 'sortHost' } },
  { header: 'UPDATED', width: 9, cell: (i) => timeText(i.updated_at), color: () => theme.muted, sort: { kind: 'time', by: (i) => i.updated_at, key: 'sortAge' } },
];
export const TIES: Ties<Intern> = { name: (i) => i.name, id: (i) => i.id };

/** What the filter matches, as the columns draw it; the description, drawn nowhere, in HOSTNAME's place when it matched. */
export const filterFields = (i: Intern): FilterField[] => [
  { text: i.name, column: 'NAME' },
  { text: statusLabel(i.status), column: 'STATUS' },
  { text: i.model ?? '', column: 'MODEL' },
  { text: i.hostname ?? '', column: 'HOSTNAME' },
  { text: i.description ?? '', column: 'HOSTNAME', hidden: 'description' },
];
