/**
 * Chat and invoke (API key). `chat` answers either the event stream of the turn it started, parsed
 * chunk by chunk with eventsource-parser, or "steered" when the session's turn was already running.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { type ChatChunk, ChatChunkSchema, type ChatRequest, InvokeResultSchema, type InvokeResult, SteeredSchema } from '../contract/chat.js';
import { describeIssues } from '../contract/errors.js';
import { CHAT_STREAM_MAX_BYTES } from '../contract/limits.js';
import { ROUTES } from '../contract/routes.js';
import { ApiError, NetworkError, ResponseShapeError, ResponseTooLargeError } from './errors.js';
import { type HttpCore, readBody } from './http.js';
import type { CallOptions, ChatStart } from './types.js';


/**
 * How long a chat stream may be silent before it is given up as severed: the service sends a
 * `: keepalive` comment after 30 s of silence, so three of them missed is a connection that is gone
 * without saying so (a proxy holding it open, a machine asleep).
 */
export const CHAT_SILENCE_MS = 90_000;

/** A chat stream that passed its cap (CHAT_STREAM_MAX_BYTES, contract/limits.ts): it was closed, which cancels the run. */
export class StreamTooLongError extends Error {
  override readonly name = 'StreamTooLongError';
  constructor(
    readonly route: string,
    readonly limit: number,
  ) {
    super(`${route}: the answer passed ${limit >= 1 << 20 ? `${limit / (1 << 20)} MiB` : `${limit} bytes`}, the most one chat stream may carry; it was closed, which cancels the run`);
  }
}

export function chatRoutes(http: HttpCore, maxEventBytes: number, silenceMs: number, maxStreamBytes = CHAT_STREAM_MAX_BYTES) {
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
      // A 200 whose body is the error envelope rather than a stream (a proxy, a service that
      // answers errors as JSON whatever was asked): its message, not "the stream ended".
      if (/^application\/json/i.test(res.headers['content-type'] ?? '')) {
        throw http.toApiError(res.status, await readBody(res, 64 << 10, res.label), res.label);
      }
      return { kind: 'stream', events: chunks(res.body, { label: res.label, maxEventBytes, maxStreamBytes, silenceMs, redact: (t) => http.redact(t) }, opts?.signal) };
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

interface StreamOptions {
  label: string;
  maxEventBytes: number;
  maxStreamBytes: number;
  silenceMs: number;
  redact: (text: string) => string;
}

/**
 * The chunks of an event stream, ending after `data: [DONE]`. Comments (keepalives) and named events
 * (`event: ping`) are skipped. A stream that ends before `[DONE]` without a chunk that finished the
 * turn, or is silent for `silenceMs`, throws a retryable `stream_severed` ApiError; one that passes
 * `maxStreamBytes` throws StreamTooLongError. Pulled, not pushed: nothing is read from the body
 * until the consumer asks for the next chunk, so a consumer that waits for its own output
 * (Output.say waits for `drain`) holds the connection back, and memory stays bounded. Leaving the loop
 * early, or aborting `signal`, cancels the body, which closes the connection and so cancels the run.
 * (The body is read through its own reader, which is the one way it is cancelled, whether or not a
 * read is pending.)
 */

async function* chunks(body: ReadableStream<Uint8Array>, { label, maxEventBytes, maxStreamBytes, silenceMs, redact }: StreamOptions, signal?: AbortSignal): AsyncGenerator<ChatChunk> {
  const queue: EventSourceMessage[] = [];
  let pending = 0;
  let total = 0;
  const parser = createParser({ onEvent: (e) => queue.push(e) });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let finished = false;
  const onAbort = () => void reader.cancel().catch(() => undefined);
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      if (signal?.aborted) throw new NetworkError(label, 'aborted', false);
      let read: Awaited<ReturnType<typeof reader.read>>;
      let silent: NodeJS.Timeout | undefined;
      let wentSilent = false;
      try {
        read = await Promise.race([
          reader.read(),
          new Promise<never>((_, reject) => {
            silent = setTimeout(() => {
              wentSilent = true;
              reject(new Error('silent'));
            }, silenceMs);
          }),
        ]);
      } catch (e) {
        if (wentSilent) {
          throw new ApiError(502, 502, 'stream_severed', true, `${label}: nothing came for ${silenceMs >= 1000 ? `${Math.round(silenceMs / 1000)} s` : `${silenceMs} ms`}, not even the service's keepalive; the answer may be incomplete`, label);
        }
        // The connection broke under the stream (the service went away): said so, not "aborted".
        if (signal?.aborted) throw new NetworkError(label, 'aborted', false);
        const cause = (e as { code?: string }).code ?? (e as { cause?: { code?: string } }).cause?.code ?? (e as Error).message;
        throw new ApiError(502, 502, 'stream_severed', true, `${label}: the connection was lost before the answer ended (${cause}); the answer may be incomplete`, label);
      } finally {
        clearTimeout(silent);
      }
      const { done, value: piece } = read;
      if (done) break;
      total += piece.length;
      if (total > maxStreamBytes) throw new StreamTooLongError(label, maxStreamBytes);
      pending += piece.length;
      parser.feed(decoder.decode(piece, { stream: true }));
      if (queue.length > 0) pending = 0;
      else if (pending > maxEventBytes) throw new ResponseTooLargeError(label, maxEventBytes);
      while (queue.length > 0) {
        const event = queue.shift()!;
        // A named event (`event: ping`) is not a chunk: skipped, as comments are.
        if (event.event !== undefined && event.event !== 'message') continue;
        if (event.data === '[DONE]') return;
        const parsed = ChatChunkSchema.safeParse(safeJson(event.data));
        if (!parsed.success) throw new ResponseShapeError(label, `an event is not a chat.completion.chunk: ${describeIssues(parsed.error)}`);
        // An in-stream error is shown and printed as an error response's is: no credential in it.
        const error = parsed.data.error;
        if (error) {
          error.message = redact(error.message);
          if (typeof error.code === 'string') error.code = redact(error.code);
          if (error.metadata) error.metadata.reason = redact(error.metadata.reason);
        }
        if (parsed.data.choices.some((c) => c.finish_reason !== null)) finished = true;
        yield parsed.data;
      }
    }
    if (signal?.aborted) throw new NetworkError(label, 'aborted', false);
    // The turn said it finished (stop, tool_calls, error): what is missing is the [DONE] after it
    // (and perhaps the usage chunk), not the answer.
    if (finished) return;
    throw new ApiError(502, 502, 'stream_severed', true, `${label}: the stream ended before [DONE]; the answer may be incomplete`, label);
  } finally {
    signal?.removeEventListener('abort', onAbort);
    await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
