/**
 * What a permission request or a question asks, as text to show above its options: a permission's
 * command (or whatever else it says it would do) in full, a question's message. No React.
 */
import type { ElicitationRequest, PermissionRequest } from '../../../contract/chat.js';
import { sanitize } from '../../../text.js';
import { wrapText } from '../../wrap.js';
import type { Turn } from '../chatModel.js';

const SAID = new Set(['kind', 'operation', 'options']);

/** What a permission allows beyond its operation's name: `$ COMMAND` for a shell command, else each further field (JSON indented). Sanitised. */
export function permissionText(request: PermissionRequest): string {
  const extra = Object.entries(request).filter(([k]) => !SAID.has(k));
  const input = request.input as { command?: unknown } | undefined;
  if (extra.length === 1 && input && typeof input.command === 'string' && Object.keys(input).length === 1) return sanitize(`$ ${input.command}`, { multiline: true });
  return extra.map(([k, v]) => sanitize(`${k}: ${typeof v === 'string' ? v : JSON.stringify(v, null, 2)}`, { multiline: true })).join('\n');
}

/** The body's lines at `width`: the permission's text, or the question's message after "Question: ". */
export function requestLines(request: PermissionRequest | ElicitationRequest, width: number): string[] {
  if (request.kind === 'elicitation') return wrapText(`Question: ${sanitize(request.message, { multiline: true })}`, width, '  ');
  const text = permissionText(request);
  return text ? wrapText(text, width, '  ') : [];
}

/**
 * What the terminal is told when a stream ends (useAttention), or null: the intern `who` waits on a
 * permission or a question, or a turn that went on `took` ms (longer than `long`) since the person
 * last acted ended. A cancelled turn (the person's own doing) says nothing.
 */
export function attentionText(t: Turn, status: Turn['status'], who: string, took: number, long: number): string | null {
  const asks = status === 'waiting' ? t.interaction?.args : undefined;
  if (asks) return asks.kind === 'permission' ? `${who} asks permission: ${asks.operation ?? 'an operation'}` : `${who} asks: ${asks.message}`;
  if ((status === 'done' || status === 'failed') && took > long) return `${who} ${status === 'done' ? 'finished' : 'failed'} after ${Math.round(took / 1000)} s`;
  return null;
}

/** At most this many of the body's rows show at once (fewer on a short pane); the rest scroll. */
export const BODY_MAX_ROWS = 12;

/**
 * A request's box: the window of its body (`lines`) a pane `paneRows` high can spare beside its
 * options or fields, and the rows the whole box takes (its border, that window, its options, or a
 * question's fields and hint).
 */
export function requestBox(asked: PermissionRequest | ElicitationRequest | undefined, lines: readonly string[], paneRows: number, offset: number): { body: ReturnType<typeof bodyWindow>; rows: number } {
  const fixed = !asked ? 0 : asked.kind === 'permission' ? asked.options.length + 3 : asked.fields.length + 3;
  const body = bodyWindow(lines, Math.min(BODY_MAX_ROWS, paneRows - 5 - fixed), offset);
  return { body, rows: asked ? fixed + body.shown.length + (body.above || body.below ? 1 : 0) : 0 };
}

/**
 * The window of a body of `lines` that `room` rows show from `offset` (clamped): the lines, and how
 * many are above and below it. A body cut takes a row of its window to say so.
 */
export function bodyWindow(lines: readonly string[], room: number, offset: number): { shown: string[]; above: number; below: number; offset: number } {
  const rows = Math.max(1, room);
  if (lines.length <= rows) return { shown: [...lines], above: 0, below: 0, offset: 0 };
  const height = Math.max(1, rows - 1);
  const o = Math.max(0, Math.min(offset, lines.length - height));
  return { shown: lines.slice(o, o + height), above: o, below: lines.length - o - height, offset: o };
}
