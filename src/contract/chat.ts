/**
 * Chat with an intern and fire-and-forget runs (public notes, "More operations"):
 * `POST /interns/{internId}/chat/completions` streams OpenAI-style `chat.completion.chunk`
 * objects over server-sent events; `POST /interns/{internId}/invoke` starts a self-drive run.
 * The intern pauses for input with one tool call named `openrouter.provide_input`, whose
 * arguments are a permission request or a question (elicitation).
 *
 * Request schemas are what the sandbox accepts (unknown fields are ignored, as an
 * OpenAI-compatible endpoint does); response schemas are what the client accepts
 * (open enums where the service documents them open).
 */
import { z } from 'zod';
import { LIMITS } from './limits.js';

export const PROVIDE_INPUT_TOOL = 'openrouter.provide_input';
export const CHAT_CHUNK_OBJECT = 'chat.completion.chunk';
/** The stream's last `data:` line. */
export const SSE_DONE = '[DONE]';

export const APPROVAL_MODES = ['manual', 'self-drive'] as const;
export type ApprovalMode = (typeof APPROVAL_MODES)[number];

/* ---------- request ---------- */

export const ChatTextPartSchema = z.object({ type: z.literal('text'), text: z.string() });
export const ChatContentSchema = z.union([z.string(), z.array(ChatTextPartSchema)]).nullable();
export type ChatContent = z.infer<typeof ChatContentSchema>;

/** A tool call as the caller echoes it back in an assistant message. */
export const ChatEchoedToolCallSchema = z.object({
  id: z.string(),
  type: z.literal('function').optional(),
  function: z.object({ name: z.string(), arguments: z.string() }),
});

export const ChatMessageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: ChatContentSchema }),
  z.object({ role: z.literal('developer'), content: ChatContentSchema }),
  z.object({ role: z.literal('user'), content: ChatContentSchema }),
  z.object({ role: z.literal('assistant'), content: ChatContentSchema.optional(), tool_calls: z.array(ChatEchoedToolCallSchema).optional() }),
  z.object({
    role: z.literal('tool'),
    tool_call_id: z.string().min(LIMITS.toolCallId.min).max(LIMITS.toolCallId.max),
    content: ChatContentSchema,
  }),
]);
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

export const SessionIdSchema = z.string().min(LIMITS.sessionId.min).max(LIMITS.sessionId.max);

export const ChatRequestSchema = z.object({
  /** Only the last message is read; earlier ones are accepted so ordinary clients can resend history. */
  messages: z.array(ChatMessageSchema).min(1),
  stream: z.literal(true),
  session_id: SessionIdSchema.optional(),
  /** Applies to the run this prompt starts; default `self-drive`. */
  approval_mode: z.enum(APPROVAL_MODES).optional(),
  /** Accepted and ignored. */
  model: z.string().optional(),
});
export type ChatRequest = z.infer<typeof ChatRequestSchema>;

export const InvokeRequestSchema = z.object({
  input: z.string().min(1),
  session_id: SessionIdSchema.optional(),
});
export type InvokeRequest = z.infer<typeof InvokeRequestSchema>;

/** The text of a message's content: a string, the text parts joined, or '' for null. */
export function contentText(content: ChatContent | undefined): string {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.map((p) => p.text).join('');
}

/* ---------- stream ---------- */

/** One server-sent event carrying `data` (a JSON value, or the `[DONE]` marker). */
export function sseData(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  // JSON.stringify never writes a raw line break, so one `data:` line holds the whole value.
  return `data: ${text}\n\n`;
}
/** The comment a chat stream sends after a stretch of silence. */
export const SSE_KEEPALIVE = ': keepalive\n\n';

/** Finish reasons: an open enum (a client shows an unknown one, it does not crash on it). */
export const FINISH_REASONS = ['stop', 'tool_calls', 'error'] as const;

export const ChatToolCallSchema = z.object({
  index: z.number().int(),
  id: z.string(),
  type: z.literal('function'),
  function: z.object({ name: z.string(), arguments: z.string() }),
});
export type ChatToolCall = z.infer<typeof ChatToolCallSchema>;

export const ChatDeltaSchema = z.object({
  role: z.literal('assistant').optional(),
  content: z.string().optional(),
  reasoning: z.string().optional(),
  tool_calls: z.array(ChatToolCallSchema).optional(),
});
export type ChatDelta = z.infer<typeof ChatDeltaSchema>;

export const ChatChoiceSchema = z.object({
  index: z.number().int(),
  delta: ChatDeltaSchema,
  finish_reason: z.string().nullable(),
});

export const ChatStreamErrorSchema = z.object({
  code: z.number().int(),
  message: z.string(),
  metadata: z.object({ reason: z.string(), retryable: z.boolean() }),
});
export type ChatStreamError = z.infer<typeof ChatStreamErrorSchema>;

export const ChatUsageSchema = z.object({
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  total_tokens: z.number().int(),
  cost: z.number().optional(),
  prompt_tokens_details: z.object({ cached_tokens: z.number().int() }).optional(),
});
export type ChatUsage = z.infer<typeof ChatUsageSchema>;

export const ChatChunkSchema = z.object({
  id: z.string(),
  object: z.literal(CHAT_CHUNK_OBJECT),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(ChatChoiceSchema),
  error: ChatStreamErrorSchema.optional(),
  /** On the final chunk (empty `choices`). */
  session_id: z.string().nullable().optional(),
  /** On the final chunk; null after `tool_calls`. */
  usage: ChatUsageSchema.nullable().optional(),
});
export type ChatChunk = z.infer<typeof ChatChunkSchema>;

/** 202: the prompt was handed to the turn already running on the session. */
export const ChatSteeredSchema = z.object({ session_id: z.string(), status: z.literal('steered') });
export type ChatSteered = z.infer<typeof ChatSteeredSchema>;

export const InvokeResultSchema = z.object({ session_id: z.string(), status: z.enum(['started', 'steered']) });
export type InvokeResult = z.infer<typeof InvokeResultSchema>;

/* ---------- interactions (openrouter.provide_input) ---------- */

export const PERMISSION_OPTION_KINDS = ['allow_once', 'allow_always', 'reject_once', 'reject_always'] as const;
export type PermissionOptionKind = (typeof PERMISSION_OPTION_KINDS)[number];
/** An option kind; open (a newer service may offer more). The answer `cancel` is always possible. */
export const PermissionOptionSchema = z.string().min(1);
export type PermissionOption = z.infer<typeof PermissionOptionSchema>;

export const PermissionRequestSchema = z.object({
  kind: z.literal('permission'),
  /** The tool or command that asks; null when the service does not say. */
  operation: z.string().nullable(),
  options: z.array(PermissionOptionSchema).min(1),
});
export type PermissionRequest = z.infer<typeof PermissionRequestSchema>;

/** One field of a question. `type` is open: `text` and `choice` (with `options`) are the ones this project knows. */
export const ElicitationFieldSchema = z.object({
  name: z.string().min(1),
  label: z.string().optional(),
  type: z.string(),
  options: z.array(z.string()).optional(),
  required: z.boolean().optional(),
});
export type ElicitationField = z.infer<typeof ElicitationFieldSchema>;

export const ElicitationRequestSchema = z.object({
  kind: z.literal('elicitation'),
  message: z.string(),
  fields: z.array(ElicitationFieldSchema),
});
export type ElicitationRequest = z.infer<typeof ElicitationRequestSchema>;

export const ProvideInputArgsSchema = z.discriminatedUnion('kind', [PermissionRequestSchema, ElicitationRequestSchema]);
export type ProvideInputArgs = PermissionRequest | ElicitationRequest;

export const ElicitationAnswerSchema = z.object({
  action: z.enum(['accept', 'decline', 'cancel']),
  content: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
});
export type ElicitationAnswer = z.infer<typeof ElicitationAnswerSchema>;

/** A permission answer is an offered option kind or `cancel`; a question's answer is an ElicitationAnswer. */
export type ProvideInputAnswer = PermissionOption | 'cancel' | ElicitationAnswer;

/** The interaction a streamed tool call asks for, or undefined when it is not a well-formed provide_input call. */
export function parseProvideInput(toolCall: Pick<ChatToolCall, 'function'>): ProvideInputArgs | undefined {
  if (toolCall.function.name !== PROVIDE_INPUT_TOOL) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(toolCall.function.arguments);
  } catch {
    return undefined;
  }
  const parsed = ProvideInputArgsSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/**
 * The two messages that answer an interaction, to send (with the same session_id) as the
 * next request: the assistant echo of the tool call, then the tool message with the answer.
 */
export function answerMessages(toolCall: Pick<ChatToolCall, 'id' | 'function'>, answer: ProvideInputAnswer): ChatMessage[] {
  return [
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: toolCall.id, type: 'function', function: { name: toolCall.function.name, arguments: toolCall.function.arguments } }],
    },
    { role: 'tool', tool_call_id: toolCall.id, content: typeof answer === 'string' ? answer : JSON.stringify(answer) },
  ];
}
