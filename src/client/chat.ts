/**
 * Chat and invoke (API key). The chat answer is a server-sent event stream, parsed with
 * eventsource-parser: each `data:` line is one `chat.completion.chunk`, checked against the
 * contract, until `[DONE]`. Leaving the loop early, or aborting the call's signal, closes the
 * connection, which cancels the run on the service.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import {
  ChatChunkSchema,
  ChatSteeredSchema,
  InvokeResultSchema,
  SSE_DONE,
  type ChatChunk,
  type ChatRequest,
  type InvokeRequest,
} from '../contract/chat.js';
import { describeIssues } from '../contract/errors.js';
import { ROUTES, routeLabel } from '../contract/routes.js';
import { NetworkError, ResponseShapeError, ResponseTooLargeError } from './errors.js';
import type { HttpCore } from './http.js';
import type { CallOptions, ChatStart } from './types.js';


/** Largest single event the client accepts (a chunk is a few hundred bytes; a command's output a few KiB). */
const MAX_EVENT_BYTES = 1 << 20;
/** The 202 answer is a two-field object. */
const STEERED_BYTES = 1 << 16;

/**
 * Parses a server-sent event stream of chat chunks. Yields each chunk, ends after `[DONE]`,
 * and throws ResponseShapeError for a chunk outside the contract, NetworkError when the
 * stream ends (or is cut) before `[DONE]`. Closes `source` (when it can) however it ends.
 */
export async function* chatEvents(
  source: AsyncIterable<Uint8Array | string> & { destroy?: () => void },
  label = routeLabel(ROUTES.chat),
  signal?: AbortSignal,
): AsyncGenerator<ChatChunk, void, undefined> {
  const ready: ChatChunk[] = [];
  let done = false;
  let failure: Error | undefined;
  let pendingBytes = 0;
  const parser = createParser({
    onEvent(event: EventSourceMessage) {
      if (done || failure) return;
      if (event.data === SSE_DONE) {
        done = true;
        return;
      }
      let value: unknown;
      try {
        value = JSON.parse(event.data);
      } catch {
        failure = new ResponseShapeError(label, 'an event is not JSON');
        return;
      }
      const parsed = ChatChunkSchema.safeParse(value);
      if (!parsed.success) failure = new ResponseShapeError(label, describeIssues(parsed.error));
      else ready.push(parsed.data);
    },
    onComment() {
      pendingBytes = 0;
    },
  });
  const decoder = new TextDecoder();
  try {
    for await (const piece of source) {
      const text = typeof piece === 'string' ? piece : decoder.decode(piece, { stream: true });
      parser.feed(text);
      // A line that never ends would grow the parser's buffer without bound.
      pendingBytes = ready.length > 0 || done ? 0 : pendingBytes + text.length;
      while (ready.length > 0) yield ready.shift() as ChatChunk;
      if (failure) throw failure;
      if (done) return;
      if (pendingBytes > MAX_EVENT_BYTES) throw new ResponseShapeError(label, `an event is larger than ${MAX_EVENT_BYTES} bytes`);
    }
  } catch (e) {
    if (e instanceof ResponseShapeError) throw e;
    throw new NetworkError(label, signal?.aborted ? 'aborted' : 'the stream was cut', false);
  } finally {
    source.destroy?.();
  }
  throw new NetworkError(label, 'the stream ended before [DONE]', false);
}

export function chatRoutes(http: HttpCore) {
  return {
    async chat(internId: string, body: ChatRequest, opts: CallOptions = {}): Promise<ChatStart> {
      const label = routeLabel(ROUTES.chat);
      const res = await http.stream({ route: ROUTES.chat, params: { internId }, body }, opts);
      if (res.status === 202) {
        const chunks: Buffer[] = [];
        let total = 0;
        for await (const piece of res.body) {
          total += piece.length;
          if (total > STEERED_BYTES) {
            res.body.destroy();
            throw new ResponseTooLargeError(label, STEERED_BYTES);
          }
          chunks.push(piece);
        }
        let value: unknown;
        try {
          value = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          throw new ResponseShapeError(label, 'the body is not JSON');
        }
        const parsed = ChatSteeredSchema.safeParse(value);
        if (!parsed.success) throw new ResponseShapeError(label, describeIssues(parsed.error));
        return { kind: 'steered', session_id: parsed.data.session_id };
      }
      const type = res.headers['content-type'] ?? '';
      if (!/^text\/event-stream\b/i.test(type)) {
        res.body.destroy();
        throw new ResponseShapeError(label, `expected text/event-stream, got ${type.slice(0, 60) || 'no content type'}`);
      }
      return { kind: 'stream', events: chatEvents(res.body, label, opts.signal) };
    },
    invoke: (internId: string, body: InvokeRequest, opts?: CallOptions) =>
      http.json(InvokeResultSchema, { route: ROUTES.invoke, params: { internId }, body }, opts),
  };
}
