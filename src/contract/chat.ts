/**
 * Chatting with an intern (public notes, "More operations": chat and invoke). The request, the streamed
 * `chat.completion.chunk`s, the `openrouter.provide_input` interactions and their answers. The sandbox
 * validates requests with these schemas; the client parses the stream with them.
 */
import * as z from 'zod';
import { describeIssues } from './errors.js';
import { LIMITS } from './limits.js';
import type { RuleCheck } from './rules.js';

export const PROVIDE_INPUT_TOOL = 'openrouter.provide_input';
export const APPROVAL_MODES = ['manual', 'self-drive'] as const;
export type ApprovalMode = (typeof APPROVAL_MODES)[number];

/** A string, a list of text parts, or null. */
export const ChatContentSchema = z.lazy(() => z.union([z.string(), z.array(z.object({ type: z.literal('text'), text: z.string() })), z.null()]));
export type ChatContent = z.infer<typeof ChatContentSchema>;

export const EchoedToolCallSchema = z.lazy(() => z.object({
  id: z.string().min(1),
  type: z.literal('function').optional(),
  function: z.object({ name: z.string(), arguments: z.string() }),
}));

export const ChatMessageSchema = z.lazy(() => z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: ChatContentSchema }),
  z.object({ role: z.literal('developer'), content: ChatContentSchema }),
  z.object({ role: z.literal('user'), content: ChatContentSchema }),
  z.object({ role: z.literal('assistant'), content: ChatContentSchema.optional(), tool_calls: z.array(EchoedToolCallSchema).optional() }),
  z.object({
    role: z.literal('tool'),
    tool_call_id: z.string().min(LIMITS.toolCallId.min).max(LIMITS.toolCallId.max),
    content: ChatContentSchema,
  }),
]));
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

/** What is wrong with a prompt's length (the service refuses a longer one with 413), or null. */
export function promptTooLong(prompt: string): string | null {
  return prompt.length > LIMITS.prompt.max ? `the prompt is ${prompt.length} characters; the service takes at most ${LIMITS.prompt.max}` : null;
}

/** A session id a client names (to continue a session): 1 to 256 characters. */
export const checkSessionId: RuleCheck<string> = (id) =>
  id.length < LIMITS.sessionId.min ? 'must not be empty' : id.length > LIMITS.sessionId.max ? `must be at most ${LIMITS.sessionId.max} characters` : null;
const SessionIdSchema = z.lazy(() => z.string().refine((id) => checkSessionId(id) === null, { error: (issue) => checkSessionId(issue.input as string) ?? 'invalid' }));

/** Extra fields an OpenAI-style client sends (temperature, ...) are accepted and ignored, like `model`. */
export const ChatRequestSchema = z.lazy(() => z.object({
  messages: z.array(ChatMessageSchema).min(1, { error: 'at least one message is needed' }),
  stream: z.literal(true, { error: 'stream must be true: this route only streams' }),
  session_id: SessionIdSchema.optional(),
  approval_mode: z.enum(APPROVAL_MODES).optional(),
  model: z.string().optional(),
}));
export type ChatRequest = z.input<typeof ChatRequestSchema>;

export const InvokeRequestSchema = z.lazy(() => z.strictObject({
  input: z.string().min(1, { error: 'input must not be empty' }).max(LIMITS.prompt.max, { error: `input must be at most ${LIMITS.prompt.max} characters` }),
  session_id: SessionIdSchema.optional(),
}));
export type InvokeRequest = z.infer<typeof InvokeRequestSchema>;
export const InvokeResultSchema = z.lazy(() => z.object({ session_id: z.string(), status: z.enum(['started', 'steered']) }));
export type InvokeResult = z.infer<typeof InvokeResultSchema>;
export const SteeredSchema = z.lazy(() => z.object({ session_id: z.string(), status: z.literal('steered') }));

export const ChatToolCallSchema = z.lazy(() => z.object({
  index: z.number().int(),
  id: z.string(),
  type: z.literal('function'),
  function: z.object({ name: z.string(), arguments: z.string() }),
}));
export type ChatToolCall = z.infer<typeof ChatToolCallSchema>;

export const ChatUsageSchema = z.lazy(() => z.object({
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  total_tokens: z.number().int(),
  cost: z.number().optional(),
  prompt_tokens_details: z.object({ cached_tokens: z.number().int().optional() }).optional(),
}));
export type ChatUsage = z.infer<typeof ChatUsageSchema>;

export const ChatErrorSchema = z.lazy(() => z.object({
  // An HTTP status; the intern routes' envelope also allows a string code, so a stream's error may carry one.
  code: z.union([z.number().int(), z.string()]),
  message: z.string(),
  metadata: z.object({ reason: z.string(), retryable: z.boolean() }).optional(),
}));

export const FINISH_REASONS = ['stop', 'tool_calls', 'error'] as const;
export const ChatChunkSchema = z.lazy(() => z.object({
  id: z.string(),
  object: z.literal('chat.completion.chunk'),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      delta: z.object({
        // 'assistant' in every chunk the notes show; another role is not a reason to drop the answer.
        role: z.string().optional(),
        content: z.string().nullish(),
        reasoning: z.string().nullish(),
        tool_calls: z.array(ChatToolCallSchema).optional(),
      }),
      finish_reason: z.string().nullable(),
    }),
  ),
  session_id: z.string().nullish(),
  usage: ChatUsageSchema.nullish(),
  error: ChatErrorSchema.optional(),
}));
export type ChatChunk = z.infer<typeof ChatChunkSchema>;

/** The permission option kinds the notes name; the list is open (an unknown kind is shown as it comes). */
export const PERMISSION_OPTIONS = ['allow_once', 'allow_always', 'reject_once', 'reject_always'] as const;
export type PermissionOption = (typeof PERMISSION_OPTIONS)[number] | (string & {});
/**
 * A permission request. Loose: what it asks to do beyond its operation (this project's sandbox
 * sends `input: { command }` for a shell command; a service may send other fields) is kept, so a
 * client can show exactly what an answer allows.
 */
export const PermissionRequestSchema = z.lazy(() => z.looseObject({
  kind: z.literal('permission'),
  operation: z.string().nullable(),
  options: z.array(z.string()).min(1),
}));
export type PermissionRequest = z.infer<typeof PermissionRequestSchema>;

/**
 * A question's field. The notes leave descriptors open; this project's sandbox sends `text`, `choice`
 * (with `options`), `boolean` and `number`, and a client shows an unknown type as text.
 */
export const ElicitationFieldSchema = z.lazy(() => z.object({
  name: z.string().min(1),
  type: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  options: z.array(z.string()).optional(),
  required: z.boolean().optional(),
}));
export type ElicitationField = z.infer<typeof ElicitationFieldSchema>;
export const ElicitationRequestSchema = z.lazy(() => z.object({
  kind: z.literal('elicitation'),
  message: z.string(),
  fields: z.array(ElicitationFieldSchema),
}));
export type ElicitationRequest = z.infer<typeof ElicitationRequestSchema>;
export const ProvideInputArgsSchema = z.lazy(() => z.discriminatedUnion('kind', [PermissionRequestSchema, ElicitationRequestSchema]));
export type ProvideInputArgs = z.infer<typeof ProvideInputArgsSchema>;

export const ElicitationAnswerSchema = z.lazy(() => z.object({
  action: z.enum(['accept', 'decline', 'cancel']),
  content: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
}));
export type ElicitationAnswer = z.infer<typeof ElicitationAnswerSchema>;

/** The answer that cancels an interaction of either kind: a permission's content, or a question's action. */
export const CANCEL_ANSWER = 'cancel';

/**
 * A question's answer as a tool message carries it: the JSON string of an ElicitationAnswer, or why
 * it is not one.
 */
export function parseElicitationAnswer(content: string): { answer: ElicitationAnswer } | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch {
    return { error: 'the answer to a question must be JSON: {"action":"accept"|"decline"|"cancel","content":{...}}' };
  }
  const r = ElicitationAnswerSchema.safeParse(value);
  if (!r.success) return { error: `the answer to a question must be {"action":"accept"|"decline"|"cancel","content":{...}}: ${describeIssues(r.error)}` };
  return { answer: r.data };
}

/**
 * What is wrong with `content` as the answer to the interaction `args` asked, or null. A permission
 * takes one of the option kinds it offered, or `cancel`; a question an ElicitationAnswer whose
 * choice fields hold one of their offered options. (Both the sandbox, which refuses anything else
 * with 400 and keeps the interaction waiting, and the clients, which only offer these, follow it.)
 */
export function checkInteractionAnswer(args: ProvideInputArgs, content: string): string | null {
  if (args.kind === 'permission') {
    if (content === CANCEL_ANSWER || args.options.includes(content)) return null;
    return `the answer to a permission request must be one of its options (${args.options.join(', ')}) or ${CANCEL_ANSWER}; got ${JSON.stringify(content.slice(0, 40))}`;
  }
  const parsed = parseElicitationAnswer(content);
  if ('error' in parsed) return parsed.error;
  if (parsed.answer.action !== 'accept') return null;
  for (const field of args.fields) {
    const value = parsed.answer.content?.[field.name];
    if (field.type !== 'choice' || !field.options?.length || value === undefined) continue;
    if (typeof value !== 'string' || !field.options.includes(value)) {
      return `${field.name}: ${JSON.stringify(typeof value === 'string' ? value.slice(0, 40) : value)} is not one of the offered options (${field.options.join(', ')})`;
    }
  }
  return null;
}

/** The interaction a streamed tool call asks for, or null when it is not a well-formed provide_input call. */
export function parseProvideInput(call: { id?: string; function: { name: string; arguments: string } }): ProvideInputArgs | null {
  if (call.function.name !== PROVIDE_INPUT_TOOL) return null;
  let args: unknown;
  try {
    args = JSON.parse(call.function.arguments);
  } catch {
    return null;
  }
  const parsed = ProvideInputArgsSchema.safeParse(args);
  return parsed.success ? parsed.data : null;
}

/** `allow_once` → `Allow once`. */
export function optionLabel(kind: string): string {
  const words = kind.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The two messages that answer an interaction: the assistant's echo of the tool call, then the tool answer. */
export function answerMessages(call: { id: string; function: { name: string; arguments: string } }, content: string): ChatMessage[] {
  return [
    { role: 'assistant', content: null, tool_calls: [{ id: call.id, type: 'function', function: { name: call.function.name, arguments: call.function.arguments } }] },
    { role: 'tool', tool_call_id: call.id, content },
  ];
}

/** A question's answer as the tool message's content. */
export function elicitationAnswer(answer: ElicitationAnswer): string {
  return JSON.stringify(answer.action === 'accept' ? answer : { action: answer.action });
}

/** The text of a message's content. */
export function contentText(content: ChatContent | undefined): string {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.map((p) => p.text).join('');
}
