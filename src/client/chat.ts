/**
 * Chat and invoke (API key). `chat` answers either the event stream of the turn it started, parsed
 * chunk by chunk with eventsource-parser, or "steered" when the session's turn was already running.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { type ChatChunk, ChatChunkSchema, type ChatRequest, InvokeResultSchema, type InvokeResult, SteeredSchema } from '../contract/chat.js';
import { describeIssues } from '../contract/errors.js';
import { ROUTES } from '../contract/routes.js';
import { ApiError, NetworkError, ResponseShapeError, ResponseTooLargeError } from './errors.js';
import { type HttpCore, readBody } from './http.js';
import type { CallOptions, ChatStart } from './types.js';


export function chatRoutes(http: HttpCore, maxEventBytes: number) {
  return {
    async chat(internId: string, body: ChatRequest, opts?: CallOptions): Promise<ChatStart> {
      const res = await http.openStream(
        { route: ROUTES.chat, params: { internId }, body, headers: { accept: 'text/event-stream' }, alsoOk: [202] },
        opts,
      );
      if (res.status === 202) {
        const raw = await readBody(res, 64 << 10, res.label);
        const parsed = SteeredSchema.safeParse(safeJson(raw.toString('utf8')));
        if (!parsed.success) throw new ResponseShapeError(res.label, describeIssues(parsed.error));
        return { kind: 'steered', session_id: parsed.data.session_id };
      }
      return { kind: 'stream', events: chunks(res.body, res.label, maxEventBytes, (t) => http.redact(t), opts?.signal) };
    },
    invoke: (internId: string, body: { input: string; session_id?: string }, opts?: CallOptions): Promise<InvokeResult> =>
      http.json(InvokeResultSchema, { route: ROUTES.invoke, params: { internId }, body }, opts),
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The chunks of an event stream, ending after `data: [DONE]`. Comments (keepalives) are skipped. A stream
 * that ends before `[DONE]` throws a retryable `stream_severed` ApiError. Leaving the loop early, or
 * aborting `signal`, cancels the body, which closes the connection and so cancels the run. (The body is
 * read through its own reader, which is the one way it is cancelled, whether or not a read is pending.)
 */
async function* chunks(body: ReadableStream<Uint8Array>, label: string, maxEventBytes: number, redact: (text: string) => string, signal?: AbortSignal): AsyncGenerator<ChatChunk> {
  const queue: EventSourceMessage[] = [];
  let pending = 0;
  const parser = createParser({ onEvent: (e) => queue.push(e) });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  const onAbort = () => void reader.cancel().catch(() => undefined);
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      if (signal?.aborted) throw new NetworkError(label, 'aborted', false);
      let read: Awaited<ReturnType<typeof reader.read>>;
      try {
        read = await reader.read();
      } catch (e) {
        // The connection broke under the stream (the service went away): said so, not "aborted".
        if (signal?.aborted) throw new NetworkError(label, 'aborted', false);
        const cause = (e as { code?: string }).code ?? (e as { cause?: { code?: string } }).cause?.code ?? (e as Error).message;
        throw new ApiError(502, 502, 'stream_severed', true, `${label}: the connection was lost before the answer ended (${cause}); the answer may be incomplete`, label);
      }
      const { done, value: piece } = read;
      if (done) break;
      pending += piece.length;
      parser.feed(decoder.decode(piece, { stream: true }));
      if (queue.length > 0) pending = 0;
      else if (pending > maxEventBytes) throw new ResponseTooLargeError(label, maxEventBytes);
      while (queue.length > 0) {
        const event = queue.shift()!;
        if (event.data === '[DONE]') return;
        const parsed = ChatChunkSchema.safeParse(safeJson(event.data));
        if (!parsed.success) throw new ResponseShapeError(label, `an event is not a chat.completion.chunk: ${describeIssues(parsed.error)}`);
        // An in-stream error is shown and printed as an error response's is: no credential in it.
        const error = parsed.data.error;
        if (error) {
          error.message = redact(error.message);
          if (error.metadata) error.metadata.reason = redact(error.metadata.reason);
        }
        yield parsed.data;
      }
    }
    if (signal?.aborted) throw new NetworkError(label, 'aborted', false);
    throw new ApiError(502, 502, 'stream_severed', true, `${label}: the stream ended before [DONE]; the answer may be incomplete`, label);
  } finally {
    signal?.removeEventListener('abort', onAbort);
    await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
