/**
 * Chat with an intern (`t` on details, `:chat NAME`). The transcript streams as chunks arrive:
 * reasoning dimmed and foldable (^o), Markdown from marked's lexer, tool calls as they happen.
 * A permission request is a numbered list (a number, or arrows and enter); a question is a form
 * built from its fields. The approval mode (^t) applies to the next prompt. esc cancels a running
 * turn; sending while one runs steers it. `busy` and `rate_limited` count down their Retry-After
 * and retry by themselves. Each turn shows its tokens and cost; ^y copies the last answer (OSC 52).
 *
 * This file is the conversation's driver (streaming, answering, the keys) and the layout; what it
 * draws is in `chat/`: the transcript as rows (`transcript.ts`, no React), its view, the prompt,
 * the permission box and the question form.
 */
import { randomUUID } from 'node:crypto';
import { Box } from 'ink';
import { Text } from '../components/Text.js';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ApiError, RETRY_AFTER_MAX_MS } from '../../client/errors.js';
import type { ChatStart } from '../../client/types.js';
import { CANCEL_ANSWER, elicitationAnswer, type ChatChunk, type ChatMessage, type ChatRequest, answerMessages, promptTooLong } from '../../contract/chat.js';
import { PROVISIONABLE_STATUSES, STARTING_STATUSES, type Intern } from '../../contract/intern.js';
import { ErrorView } from '../components/ErrorView.js';
import { useTui } from '../context.js';
import { useAttention } from '../hooks/useAttention.js';
import { useClipboard } from '../hooks/useClipboard.js';
import { useKeys } from '../hooks/useKeys.js';
import { useResource } from '../hooks/useResource.js';
import { usePolling } from '../hooks/usePolling.js';
import { useScreen } from '../hooks/useScreen.js';
import { keyLabel, matches } from '../keymap.js';
import { supportsHyperlinks } from '../markdown.js';
import { sanitize } from '../../text.js';
import { theme } from '../theme.js';
import { type Turn, applyChunk, conversationOf, endedStatus, newTurn, optionText } from './chatModel.js';
import { ChatPrompt, promptLabelWidth } from './chat/ChatPrompt.js';
import { promptRows, promptState } from './chat/promptModel.js';
import { chatStores, restoreLatest, saveTurn, sessionReplaced, startNew } from './chat/saved.js';
import { PermissionBox, permissionRows } from './chat/PermissionBox.js';
import { QuestionForm, questionRows } from './chat/QuestionForm.js';
import { TranscriptView } from './chat/TranscriptView.js';
import { BODY_MAX_ROWS, bodyWindow, requestLines } from './chat/request.js';
import { TranscriptLayout, keepPlace, scrollWindow } from './chat/transcript.js';

/** Reasons the service answers while the intern cannot take a prompt yet; retried after Retry-After. */
const WAIT_REASONS = ['busy', 'rate_limited'];
const DEFAULT_RETRY_MS = 2000;
/** A turn that went on this long without the person is signalled when it ends (issue 39). */
export const LONG_TURN_MS = 10_000;

/**
 * An answer to wait out and retry by itself (busy, rate limited), within the client's longest wait:
 * asked for longer (an hour), it is an error that says how long, as a command's is, rather than a
 * prompt that hangs silently.
 */
export function isWaitError(e: unknown): e is ApiError {
  return e instanceof ApiError && (WAIT_REASONS.includes(e.reason ?? '') || e.status === 429) && (e.retryAfterMs ?? 0) <= RETRY_AFTER_MAX_MS;
}

export function ChatScreen({ id, seed }: { id: string; seed?: Intern }) {
  const { api, nav, active, size, pane, options } = useTui();
  const copy = useClipboard();
  const signal = useAttention();
  // When the turn last went on without waiting for the person (a prompt sent, a request answered).
  const resumedAt = useRef(Date.now());
  const intern = useResource((signal) => api.getIntern(id, { signal }), id, seed);
  // One on its way up is read again until it settles, so the hint that it cannot take a prompt yet
  // goes once it can (it said "wait until it runs" for as long as the screen was open).
  usePolling(Boolean(intern.data && STARTING_STATUSES.includes(intern.data.status)), async () => {
    const fresh = await api.getIntern(id);
    const changed = fresh.status !== intern.data?.status;
    intern.set(fresh);
    return changed;
  }, 1000, 5000);
  const convo = useMemo(() => conversationOf(api, id), [api, id]);
  // Saved conversations and the prompt history (screens/chat/saved.ts): on the first opening in
  // this process, the intern's latest conversation comes back with its transcript.
  const stores = useMemo(() => chatStores(options.stateDir, options.profile, options.host, api), [options.stateDir, options.profile, options.host, api]);
  const skipped = useMemo(() => (stores.conversations ? restoreLatest(convo, stores.conversations, id) : []), [convo, stores, id]);
  useEffect(() => {
    const problems = [...skipped, stores.history.takeProblem()].filter((p): p is string => Boolean(p));
    if (problems.length) nav.flash(`${problems[0]}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''}`, 'error');
  }, [skipped, stores, nav]);
  const save = (at: number) => {
    const problem = saveTurn(convo, stores.conversations, { id, name: intern.data?.name ?? seed?.name ?? id }, at);
    if (problem) nav.flash(problem, 'error');
  };
  const [, setVersion] = useState(0);
  const bump = useCallback(() => setVersion((v) => v + 1), []);
  // A prompt typed and not sent outlives the screen (esc leaves it, as it leaves any screen): the
  // conversation keeps it, as chat apps keep a draft.
  const [input, setInput] = useState(() => convo.draft ?? '');
  const [prompt, setPrompt] = useState(() => promptState(input));
  const searching = prompt.search !== null && prompt.value === input;
  useEffect(() => {
    convo.draft = input;
  }, [convo, input]);
  const [folded, setFolded] = useState(false);
  const [scroll, setScroll] = useState(0);
  // The transcript's length when last drawn: scrolled back, the view keeps its place as rows arrive.
  const [seenRows, setSeenRows] = useState(0);
  const [pick, setPick] = useState(0);
  // How far the request's text is scrolled, for the interaction it belongs to (a new one starts at its top).
  const [bodyAt, setBodyAt] = useState({ id: '', offset: 0 });
  const [retry, setRetry] = useState<{ at: number; reason: string } | null>(null);
  const [now, setNow] = useState(Date.now());
  const running = useRef<AbortController | null>(null);
  const retryTimer = useRef<NodeJS.Timeout | undefined>(undefined);
  const hyperlinks = useMemo(() => supportsHyperlinks(), []);
  const layout = useMemo(() => new TranscriptLayout(), []);

  const last = convo.turns[convo.turns.length - 1];
  const interaction = last?.status === 'waiting' ? last.interaction : undefined;
  const isRunning = last?.status === 'running';
  const permission = interaction?.args.kind === 'permission' ? interaction.args : undefined;
  const question = interaction?.args.kind === 'elicitation' ? interaction.args : undefined;

  useScreen(permission ? ['permission', 'chat'] : question ? ['question', 'chat'] : searching ? ['promptSearch', 'text'] : ['chatPrompt', 'chat', 'text'], true);
  // Leaving the screen cancels a running turn's stream and any pending retry.
  // Leaving marks such a turn cancelled, so coming back never shows a stream that is not there.
  useEffect(
    () => () => {
      const t = convo.turns[convo.turns.length - 1];
      if (running.current || retryTimer.current) {
        running.current?.abort();
        clearTimeout(retryTimer.current);
        if (t && t.status === 'running') {
          convo.turns[convo.turns.length - 1] = { ...t, status: 'cancelled' };
          save(convo.turns.length - 1);
        }
      }
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps -- save reads the stores and the intern as they are at the end
    [convo],
  );
  useEffect(() => {
    if (!retry) return;
    const t = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(t);
  }, [retry]);

  const setLast = (turn: Turn) => {
    convo.turns[convo.turns.length - 1] = turn;
    bump();
  };

  /**
   * Sends `body` for the last turn and streams into it; waits and retries on busy / rate_limited.
   * `prompt`: the text of a new prompt, which goes back into the field when the service refuses
   * it (a stopped intern, a prompt too large), so that it is not lost with the turn.
   */
  const stream = async (body: ChatRequest, prompt?: string): Promise<void> => {
    const ctl = new AbortController();
    running.current = ctl;
    let start: ChatStart;
    try {
      start = await api.chat(id, body, { signal: ctl.signal });
    } catch (e) {
      if (ctl.signal.aborted) return;
      running.current = null;
      if (isWaitError(e)) {
        const wait = e.retryAfterMs ?? DEFAULT_RETRY_MS;
        setRetry({ at: Date.now() + wait, reason: sanitize(e.reason ?? `HTTP ${e.status}`) });
        setNow(Date.now());
        retryTimer.current = setTimeout(() => {
          retryTimer.current = undefined;
          setRetry(null);
          void stream(body, prompt);
        }, wait);
        return;
      }
      const t = convo.turns[convo.turns.length - 1]!;
      setLast({ ...t, status: 'failed', error: e, unsent: prompt !== undefined });
      if (prompt !== undefined) giveBack(prompt, 'not sent');
      return;
    }
    if (start.kind === 'steered') {
      running.current = null;
      convo.sessionId = start.session_id;
      return;
    }
    setLast({ ...convo.turns[convo.turns.length - 1]!, started: true });
    save(convo.turns.length - 1);
    await consume(start.events, ctl, convo.turns.length - 1);
  };

  /**
   * Streams `events` into the turn at `at` (the one they answer, whatever is added after it), and
   * ends it waiting, done, failed or, once `ctl` is aborted, cancelled. An error (a severed or
   * silent stream) fails the turn: unhandled, it ended the process with the terminal in raw mode.
   */
  const consume = async (events: AsyncIterable<ChatChunk>, ctl: AbortController, at: number): Promise<void> => {
    const setTurn = (turn: Turn) => {
      convo.turns[at] = turn;
      bump();
    };
    try {
      for await (const chunk of events) {
        const { turn, sessionId } = applyChunk(convo.turns[at]!, chunk);
        if (sessionId) {
          const gone = sessionReplaced(convo, sessionId);
          if (gone) nav.flash(`the service no longer knows session ${sanitize(gone).slice(0, 24)}: the conversation goes on in a new one (the intern does not remember the earlier turns)`, 'error');
          convo.sessionId = sessionId;
        }
        setTurn(turn);
      }
      const t = convo.turns[at]!;
      const status = ctl.signal.aborted ? 'cancelled' : endedStatus(t);
      setTurn({ ...t, status });
      save(at);
      signalEnd(t, status);
    } catch (e) {
      const t = convo.turns[at]!;
      setTurn(ctl.signal.aborted ? { ...t, status: 'cancelled' } : { ...t, status: 'failed', error: e });
      save(at);
      if (!ctl.signal.aborted) signalEnd(t, 'failed');
    } finally {
      if (running.current === ctl) running.current = null;
    }
  };

  /**
   * The terminal is signalled (useAttention) when the intern waits for the person: a permission
   * request or a question arrived, or a turn that went on for longer than LONG_TURN_MS since the
   * person last acted ended; a turn the person cancelled is not signalled.
   */
  const signalEnd = (t: Turn, status: Turn['status']) => {
    const who = intern.data ? intern.data.name : 'the intern';
    const asks = status === 'waiting' ? t.interaction?.args : undefined;
    if (asks) return signal(asks.kind === 'permission' ? `${who} asks permission: ${asks.operation ?? 'an operation'}` : `${who} asks: ${asks.message}`);
    const took = Date.now() - resumedAt.current;
    if ((status === 'done' || status === 'failed') && took > LONG_TURN_MS) signal(`${who} ${status === 'done' ? 'finished' : 'failed'} after ${Math.round(took / 1000)} s`);
  };

  const request = (messages: ChatMessage[]): ChatRequest => ({
    messages,
    stream: true,
    ...(convo.sessionId ? { session_id: convo.sessionId } : {}),
    approval_mode: convo.mode,
  });

  /** A prompt the service did not take goes back into the field, before anything typed since. */
  const giveBack = (prompt: string, what: string, why?: string) => {
    setInput((typed) => (typed ? `${prompt} ${typed}` : prompt));
    nav.flash(`${what} (your text is back in the field)${why ? `: ${why}` : ''}`, 'error');
  };

  const send = (text: string) => {
    const prompt = text.trim();
    if (!prompt) return;
    const long = promptTooLong(prompt);
    if (long) return nav.flash(`${long}: nothing was sent`, 'error');
    stores.history.add(prompt);
    setInput('');
    setScroll(0);
    if (isRunning) {
      // Steering: the running turn takes the prompt; its stream carries the rest. The transcript
      // says so once the service has taken it; refused, the text goes back into the field.
      // Its own controller: should the prompt become a turn of its own, esc cancels that turn's stream.
      const steerCtl = new AbortController();
      void api.chat(id, request([{ role: 'user', content: prompt }]), { signal: steerCtl.signal }).then(
        (start) => {
          if (start.kind === 'steered') {
            convo.sessionId = start.session_id;
            const t = convo.turns[convo.turns.length - 1]!;
            setLast({ ...t, notes: [...t.notes, `↪ steered: ${prompt}`] });
            save(convo.turns.length - 1);
          } else {
            // The turn ended before the prompt arrived: it is a turn of its own, streamed as
            // stream() streams one (the running one, cancelled by esc, and only into its own turn).
            convo.turns.push({ ...newTurn(prompt), started: true });
            running.current = steerCtl;
            resumedAt.current = Date.now();
            bump();
            void consume(start.events, steerCtl, convo.turns.length - 1);
          }
        },
        (e: unknown) => giveBack(prompt, 'steering failed', sanitize((e as Error).message)),
      );
      return;
    }
    if (interaction) return nav.flash(`answer the question first (or ${keyLabel('chatCancel')} to cancel it)`, 'error');
    // The service names a new session only in a turn's last chunk; a session id of our own (an
    // unknown id starts a session under it) lets a prompt sent while the first turn runs steer it.
    // A prompt the service refused is in the field again, not in the conversation.
    for (let i = convo.turns.length - 1; i >= 0; i--) if (convo.turns[i]!.unsent) convo.turns.splice(i, 1);
    convo.sessionId ??= randomUUID();
    convo.turns.push(newTurn(prompt));
    resumedAt.current = Date.now();
    bump();
    void stream(request([{ role: 'user', content: prompt }]), prompt);
  };

  /** Answers the waiting interaction and streams the rest of the turn. */
  const answer = (content: string, note: string) => {
    const t = convo.turns[convo.turns.length - 1];
    if (!t?.interaction) return;
    const call = t.interaction.call;
    setLast({ ...t, status: 'running', replies: { ...t.replies, [call.id]: note }, interaction: { ...t.interaction, answered: true }, answeredIds: [...t.answeredIds, call.id] });
    setPick(0);
    resumedAt.current = Date.now();
    void stream(request(answerMessages(call, content)));
  };


  useKeys((ch, key) => {
    if (matches('approval', ch, key)) {
      convo.mode = convo.mode === 'manual' ? 'self-drive' : 'manual';
      return bump();
    }
    if (matches('reasoning', ch, key)) return setFolded((f) => !f);
    if (matches('newConversation', ch, key) || matches('conversations', ch, key)) {
      if (isRunning || interaction || retry) return nav.flash(`the turn is still running or waiting: ${keyLabel('chatCancel')} cancels it first`, 'error');
      if (matches('conversations', ch, key)) {
        if (!stores.conversations) return nav.flash('no state folder (HOME or XDG_STATE_HOME): conversations are not saved', 'error');
        return nav.push({ name: 'chatSessions', id, seed: intern.data ?? seed });
      }
      if (convo.turns.length === 0) return nav.flash('this conversation is new already');
      startNew(convo);
      setScroll(0);
      bump();
      return nav.flash(stores.conversations ? `a new conversation (the last one is saved: ${keyLabel('conversations')} lists them)` : 'a new conversation');
    }
    // A request longer than its box takes the paging keys while it is asked: what it allows comes first.
    const bodyCut = body.above > 0 || body.below > 0;
    const bodyStep = (sign: number) => setBodyAt({ id: interaction!.call.id, offset: Math.max(0, body.offset + sign * Math.max(1, body.shown.length - 1)) });
    if (matches('scrollUp', ch, key)) return bodyCut ? bodyStep(-1) : setScroll((s) => s + Math.max(1, transcriptHeight - 1));
    if (matches('scrollDown', ch, key)) return bodyCut ? bodyStep(1) : setScroll((s) => Math.max(0, s - Math.max(1, transcriptHeight - 1)));
    if (matches('copyAnswer', ch, key)) {
      const lastAnswer = [...convo.turns].reverse().find((t) => t.answer.trim() !== '');
      if (!lastAnswer) return nav.flash('no answer to copy yet');
      return copy(sanitize(lastAnswer.answer, { multiline: true }), 'the last answer');
    }
    if (matches('chatCancel', ch, key)) {
      if (retry) {
        clearTimeout(retryTimer.current);
        retryTimer.current = undefined;
        setRetry(null);
        const t = convo.turns[convo.turns.length - 1];
        if (t) setLast({ ...t, status: 'cancelled' });
        return;
      }
      if (isRunning) {
        running.current?.abort();
        const t = convo.turns[convo.turns.length - 1]!;
        setLast({ ...t, status: 'cancelled' });
        return save(convo.turns.length - 1);
      }
      if (permission) return answer(CANCEL_ANSWER, '✖ cancelled the request');
      if (question) return answer(elicitationAnswer({ action: CANCEL_ANSWER }), '✖ cancelled the question');
      return nav.pop();
    }
    if (permission) {
      const n = Number(ch);
      if (matches('optionPick', ch, key) && n <= permission.options.length) {
        const opt = permission.options[n - 1]!;
        return answer(opt, `→ ${optionText(sanitize(opt))}`);
      }
      if (matches('optionUp', ch, key)) return setPick((p) => Math.max(0, p - 1));
      if (matches('optionDown', ch, key)) return setPick((p) => Math.min(permission.options.length - 1, p + 1));
      if (matches('optionAccept', ch, key)) {
        const opt = permission.options[Math.min(pick, permission.options.length - 1)]!;
        return answer(opt, `→ ${optionText(sanitize(opt))}`);
      }
      return;
    }
  }, active && !searching);

  // Layout: status line, transcript, the interaction, the prompt (3 rows); the keys are the footer's.
  // On a short pane the prompt's rules go: the prompt itself always shows, and the transcript keeps
  // a row.
  const width = Math.max(20, size.columns - 2);
  // A permission box: its border, title and options. A question's: its border, title, a row a
  // field, and the hint (or the form's error in its place).
  // The request's text (a permission's command, a question's message) in full, in a window of the
  // rows the pane can spare: the transcript keeps a row, and the prompt its own.
  const boxWidth = Math.max(10, pane.columns - 4);
  const asked = permission ?? question;
  const bodyLines = useMemo(() => (asked ? requestLines(asked, boxWidth) : []), [asked, boxWidth]);
  const fixedRows = permission ? permission.options.length + 3 : question ? question.fields.length + 3 : 0;
  const body = bodyWindow(bodyLines, Math.min(BODY_MAX_ROWS, pane.rows - 5 - fixedRows), bodyAt.id === interaction?.call.id ? bodyAt.offset : 0);
  const interactionRows = permission ? permissionRows(permission, body) : question ? questionRows(question, body) : 0;
  const lastError = last?.error;
  const otherRows = interactionRows + (retry ? 1 : 0) + (lastError && !isRunning ? 1 : 0);
  // The prompt grows with its lines (PROMPT_ROWS_MAX at most) and takes its rows from the transcript.
  const inputRows = promptRows(prompt.value === input ? prompt : promptState(input), width - promptLabelWidth(isRunning));
  const ruled = pane.rows - otherRows - inputRows >= 5;
  const transcriptHeight = Math.max(1, pane.rows - 1 - (ruled ? 2 : 0) - inputRows - otherRows);
  const rule = <Text color={permission || question ? theme.muted : theme.accent}>{'─'.repeat(Math.max(1, pane.columns))}</Text>;
  // Laid out only where a turn changed (the layout keeps the rest), and drawn only where visible.
  const total = layout.update(
    convo.turns.filter((t) => !t.unsent),
    { width, folded, hyperlinks },
  ).total;
  // Scrolled back while a turn streams, the view keeps its place (keepPlace; React's "adjust
  // state while rendering": the render restarts at once with it).
  if (total !== seenRows) {
    setSeenRows(total);
    setScroll(keepPlace(scroll, seenRows, total));
  }
  const { top, maxScroll } = scrollWindow(total, transcriptHeight, scroll);
  const version = layout.version;
  // The same window of the same layout is the same array: the memoised view skips it.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the layout is one object; its version says it changed
  const visible = useMemo(() => layout.slice(top, top + transcriptHeight).map((r) => r.row), [layout, version, top, transcriptHeight]);
  const name = intern.data ? sanitize(intern.data.name) : '…';

  return (
    <Box flexDirection="column" flexGrow={1}>
      <Text wrap="truncate-end">
        <Text bold>Chat with {name}</Text>
        {/* First after the name: at 80 columns the end of this line is cut. */}
        {scroll > 0 ? <Text color={theme.warning}>{` · scrolled ${Math.min(scroll, maxScroll)} up (${keyLabel('scrollDown')})`}</Text> : null}
        <Text color={theme.muted}> · mode </Text>
        <Text color={convo.mode === 'manual' ? theme.warning : theme.accent}>{convo.mode}</Text>
        <Text color={theme.muted}>
          {' '}({keyLabel('approval')}) · reasoning {folded ? 'folded' : 'shown'} ({keyLabel('reasoning')})
          {convo.sessionId && convo.turns.some((t) => t.started) ? ` · session ${sanitize(convo.sessionId).slice(0, 12)}` : ''}
        </Text>
      </Text>
      <TranscriptView
        rows={visible}
        first={top}
        height={transcriptHeight}
        empty={
          intern.data && intern.data.status !== 'running'
            ? `${name} is ${sanitize(intern.data.status)}: a prompt needs it running (${
                PROVISIONABLE_STATUSES.includes(intern.data.status)
                  ? `${keyLabel('provision')} provisions it on the details screen`
                  : STARTING_STATUSES.includes(intern.data.status)
                    ? 'it is on its way: wait until it runs'
                    : 'it cannot run now'
              }).`
            : `Type a prompt and press ${keyLabel('send')}. Markdown answers are rendered; ${keyLabel('chatCancel')} cancels a running turn.`
        }
      />
      {retry ? (
        <Text color={theme.warning}>
          {retry.reason}: retrying in {Math.max(0, Math.ceil((retry.at - now) / 1000))}s (esc gives up)
        </Text>
      ) : null}
      {lastError && !isRunning ? <ErrorView error={lastError} compact /> : null}
      {permission ? <PermissionBox request={permission} pick={pick} body={body} /> : null}
      {question ? <QuestionForm key={interaction!.call.id} request={question} body={body} onAnswer={(content, note) => answer(content, note)} /> : null}
      {/* Rules drawn as text: Ink does not take a border side switched on or off after the first
          render into its layout (only a change of borderStyle is), and drew a border a row taller
          than its box, which threw. */}
      {ruled ? rule : null}
      <ChatPrompt
        value={input}
        onChange={setInput}
        onSubmit={send}
        focus={active && !permission && !question}
        width={width}
        steering={isRunning}
        placeholder={isRunning ? 'type to steer the running turn' : permission || question ? 'answer above first' : 'a prompt'}
        history={stores.history.entries}
        state={prompt}
        onState={setPrompt}
      />
      {ruled ? rule : null}
    </Box>
  );
}
