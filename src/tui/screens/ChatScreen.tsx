/**
 * Chat with an intern (`t` on details, `:chat NAME`): the conversation's driver (streaming into the
 * last turn, answering permissions and questions, steering, retrying `busy` and `rate_limited` after
 * their Retry-After, the keys) and the layout. What it draws is in `chat/`: the transcript as rows
 * (`transcript.ts`, no React) and its view, the prompt, the permission box and the question form.
 */
import { randomUUID } from 'node:crypto';
import { Box } from 'ink';
import { Text } from '../components/Text.js';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ChatStart } from '../../client/types.js';
import { CANCEL_ANSWER, elicitationAnswer, type ChatChunk, type ChatMessage, type ChatRequest, answerMessages, promptTooLong } from '../../contract/chat.js';
import type { Intern } from '../../contract/intern.js';
import { ErrorView } from '../components/ErrorView.js';
import { useTui } from '../context.js';
import { useAttention } from '../hooks/useAttention.js';
import { useClipboard } from '../hooks/useClipboard.js';
import { useKeys } from '../hooks/useKeys.js';
import { useTick } from '../hooks/useTick.js';
import { useScreen } from '../hooks/useScreen.js';
import { keyLabel, matches } from '../keymap.js';
import { supportsHyperlinks } from '../markdown.js';
import { sanitize } from '../../text.js';
import { theme } from '../theme.js';
import { type Turn, applyChunk, conversationOf, endedStatus, newTurn, optionText } from './chatModel.js';
import { ChatPrompt, promptHeight } from './chat/ChatPrompt.js';
import { promptState } from './chat/promptModel.js';
import { useSavedChat } from './chat/useSavedChat.js';
import { useSettlingIntern } from './chat/useSettlingIntern.js';
import { PermissionBox } from './chat/PermissionBox.js';
import { QuestionForm } from './chat/QuestionForm.js';
import { TranscriptView } from './chat/TranscriptView.js';
import { ChatHeader, emptyHint } from './chat/ChatHeader.js';
import { useTranscriptNav } from './chat/useTranscriptNav.js';
import { useHighlight } from './chat/useHighlight.js';
import { TextField } from '../components/TextField.js';
import { attentionText, requestBox, requestLines } from './chat/request.js';
import { TranscriptLayout, keepPlace, scrollWindow } from './chat/transcript.js';
import { DEFAULT_RETRY_MS, LONG_TURN_MS, isWaitError } from './chat/waits.js';

export function ChatScreen({ id, seed }: { id: string; seed?: Intern }) {
  const { api, nav, active, size, pane } = useTui();
  const copy = useClipboard();
  const signal = useAttention();
  // When the turn last went on without waiting for the person (a prompt sent, a request answered).
  const resumedAt = useRef(Date.now());
  const intern = useSettlingIntern(id, seed);
  const convo = useMemo(() => conversationOf(api, id), [api, id]);
  // Saved conversations and the prompt history (the latest conversation comes back on first opening).
  const saved = useSavedChat(convo, id, intern.data ?? seed);
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
  // Tool calls shown whole (enter on one in the transcript).
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  const [scroll, setScroll] = useState(0);
  // The transcript's length when last drawn: scrolled back, the view keeps its place as rows arrive.
  const [seenRows, setSeenRows] = useState(0);
  const [pick, setPick] = useState(0);
  // How far the request's text is scrolled, for the interaction it belongs to (a new one starts at its top).
  const [bodyAt, setBodyAt] = useState({ id: '', offset: 0 });
  const [retry, setRetry] = useState<{ at: number; reason: string } | null>(null);
  const running = useRef<AbortController | null>(null);
  const retryTimer = useRef<NodeJS.Timeout | undefined>(undefined);
  const hyperlinks = useMemo(() => supportsHyperlinks(), []);
  const layout = useMemo(() => new TranscriptLayout(), []);
  const code = useHighlight();

  const last = convo.turns[convo.turns.length - 1];
  const interaction = last?.status === 'waiting' ? last.interaction : undefined;
  const isRunning = last?.status === 'running';
  const permission = interaction?.args.kind === 'permission' ? interaction.args : undefined;
  const question = interaction?.args.kind === 'elicitation' ? interaction.args : undefined;

  // Leaving the screen cancels a running turn's stream and any pending retry.
  // Leaving marks such a turn cancelled, so coming back never shows a stream that is not there.
  useEffect(
    () => () => {
      const t = convo.turns[convo.turns.length - 1];
      if (running.current || retryTimer.current) {
        running.current?.abort();
        clearTimeout(retryTimer.current);
        if (t && t.status === 'running') saved.cancelled(convo.turns.length - 1);
      }
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps -- saved as the stores and the intern are at the end
    [convo],
  );
  // The retry's countdown moves with the clock.
  useTick(250, retry !== null);

  // The last turn as it now stands, saved once the service has taken it (chat/saved.ts).
  const setLast = (turn: Turn) => {
    convo.turns[convo.turns.length - 1] = turn;
    saved.save(convo.turns.length - 1);
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
        if (sessionId) convo.sessionId = saved.sessionNamed(sessionId);
        setTurn(turn);
      }
      const t = convo.turns[at]!;
      const status = ctl.signal.aborted ? 'cancelled' : endedStatus(t);
      setTurn({ ...t, status });
      saved.save(at);
      signalEnd(t, status);
    } catch (e) {
      const t = convo.turns[at]!;
      setTurn(ctl.signal.aborted ? { ...t, status: 'cancelled' } : { ...t, status: 'failed', error: e });
      saved.save(at);
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
    const text = attentionText(t, status, intern.data ? intern.data.name : 'the intern', Date.now() - resumedAt.current, LONG_TURN_MS);
    if (text) signal(text);
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
    saved.stores.history.add(prompt);
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


  // Layout: status line, transcript, the interaction, the prompt (3 rows); the keys are the footer's.
  // On a short pane the prompt's rules go: the prompt itself always shows, and the transcript keeps
  // a row.
  const width = Math.max(20, size.columns - 2);
  // The request's text (a permission's command, a question's message) in full, in a window of the
  // rows the pane can spare (requestBox): the transcript keeps a row, and the prompt its own.
  const asked = permission ?? question;
  const bodyLines = useMemo(() => (asked ? requestLines(asked, Math.max(10, pane.columns - 4)) : []), [asked, pane.columns]);
  const { body, rows: interactionRows } = requestBox(asked, bodyLines, pane.rows, bodyAt.id === interaction?.call.id ? bodyAt.offset : 0);
  const lastError = last?.error;
  const otherRows = interactionRows + (retry ? 1 : 0) + (lastError && !isRunning ? 1 : 0);
  const inputRows = promptHeight(prompt, input, width, isRunning);
  const ruled = pane.rows - otherRows - inputRows >= 5;
  const transcriptHeight = Math.max(1, pane.rows - 1 - (ruled ? 2 : 0) - inputRows - otherRows);
  const rule = <Text color={permission || question ? theme.muted : theme.accent}>{'─'.repeat(Math.max(1, pane.columns))}</Text>;
  // Laid out only where a turn changed (the layout keeps the rest), and drawn only where visible.
  const total = layout.update(convo.turns.filter((t) => !t.unsent), { width, folded, hyperlinks, expanded, ...code }).total;
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
  const nav_ = useTranscriptNav({
    layout,
    height: transcriptHeight,
    scroll,
    setScroll,
    type: (text) => setInput((typed) => typed + text),
    copy,
    flash: (text) => nav.flash(text),
    toggleTool: (toolId) => setExpanded((open) => (open.has(toolId) ? new Set([...open].filter((x) => x !== toolId)) : new Set([...open, toolId]))),
  });
  const inTranscript = nav_.mode !== 'prompt' && !permission && !question;
  useScreen(
    permission ? ['permission', 'chat'] : question ? ['question', 'chat'] : nav_.mode === 'search' ? ['prompt', 'text'] : nav_.mode === 'transcript' ? ['transcript', 'chat'] : searching ? ['promptSearch', 'text'] : ['chatPrompt', 'chat', 'text'],
    true,
  );

  useKeys((ch, key) => {
    // The transcript's keys first while it has them (a request, when asked, takes them back).
    if (inTranscript && nav_.handle(ch, key)) return;
    if (matches('approval', ch, key)) {
      convo.mode = convo.mode === 'manual' ? 'self-drive' : 'manual';
      return bump();
    }
    if (matches('reasoning', ch, key)) return setFolded((f) => !f);
    if (saved.handleKey(ch, key, Boolean(isRunning || interaction || retry), () => (setScroll(0), bump()))) return;
    // A request longer than its box takes the paging keys while it is asked: what it allows comes first.
    const bodyCut = body.above > 0 || body.below > 0;
    const bodyStep = (sign: number) => setBodyAt({ id: interaction!.call.id, offset: Math.max(0, body.offset + sign * Math.max(1, body.shown.length - 1)) });
    if (matches('scrollUp', ch, key)) return bodyCut ? bodyStep(-1) : nav_.enter();
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
        return setLast({ ...t, status: 'cancelled' });
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

  const name = intern.data ? sanitize(intern.data.name) : '…';

  return (
    <Box flexDirection="column" flexGrow={1}>
      <ChatHeader
        name={name}
        scrolled={Math.min(scroll, maxScroll)}
        mode={convo.mode}
        folded={folded}
        session={convo.sessionId && convo.turns.some((t) => t.started) ? convo.sessionId : undefined}
        search={nav_.query ? { query: nav_.query, count: nav_.found.length, at: nav_.found.indexOf(nav_.cursor) + 1 } : undefined}
      />
      <TranscriptView rows={visible} first={top} height={transcriptHeight} empty={emptyHint(intern.data, name)} cursor={inTranscript ? nav_.cursor - top : -1} query={nav_.query} setScroll={setScroll} maxScroll={maxScroll} />
      {retry ? (
        <Text color={theme.warning}>
          {retry.reason}: retrying in {Math.max(0, Math.ceil((retry.at - Date.now()) / 1000))}s (esc gives up)
        </Text>
      ) : null}
      {lastError && !isRunning ? <ErrorView error={lastError} compact /> : null}
      {permission ? <PermissionBox request={permission} pick={pick} body={body} /> : null}
      {question ? <QuestionForm key={interaction!.call.id} request={question} body={body} onAnswer={(content, note) => answer(content, note)} /> : null}
      {/* Rules drawn as text: Ink does not take a border side switched on or off after the first
          render into its layout (only a change of borderStyle is), and drew a border a row taller
          than its box, which threw. */}
      {ruled ? rule : null}
      {nav_.mode === 'search' && inTranscript ? (
        <TextField label="/" labelWidth={4} value={nav_.draft} onChange={nav_.setDraft} focused={active} placeholder={`search the transcript (${keyLabel('accept')} searches)`} />
      ) : (
      <ChatPrompt
        value={input}
        onChange={setInput}
        onSubmit={send}
        focus={active && !permission && !question && nav_.mode === 'prompt'}
        width={width}
        steering={isRunning}
        placeholder={isRunning ? 'type to steer the running turn' : permission || question ? 'answer above first' : 'a prompt'}
        history={saved.stores.history.entries}
        state={prompt}
        onState={setPrompt}
      />
      )}
      {ruled ? rule : null}
    </Box>
  );
}
