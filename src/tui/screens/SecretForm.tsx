/**
 * Adding or replacing a vault secret. The value is typed masked, or written in $EDITOR, or read
 * from a file; it is never drawn, only its length. Hosts are a list: each typed host is checked
 * live with the contract's host rule and added with enter; backspace on an empty host removes the
 * last one.
 */
import { Box } from 'ink';
import { Text } from '../components/Text.js';
import { useLayoutEffect, useState } from 'react';
import { LIMITS } from '../../contract/limits.js';
import { explainFileError, readRegularFile } from '../../files.js';
import { checkSecretName, checkSecretValue, normaliseHost, validateHosts, type VaultSecretWrite } from '../../contract/vault.js';
import { Confirm, confirmRows } from '../components/Confirm.js';
import { ErrorView } from '../components/ErrorView.js';
import { Spinner } from '../components/Spinner.js';
import { FieldWindow, windowedTextField, type WindowedField } from '../components/FieldWindow.js';
import { useTui } from '../context.js';
import { useFieldEditor } from '../hooks/useExternalEditor.js';
import { useDiscard } from '../hooks/useForm.js';
import { useKeys } from '../hooks/useKeys.js';
import { keyLabel, matches, TEXT_FIELD_SCOPES, type TextFieldKind } from '../keymap.js';
import { sanitize } from '../../text.js';
import { theme } from '../theme.js';
import { counted } from '../format.js';

const FIELDS = ['name', 'value', 'file', 'host'] as const;
type Field = (typeof FIELDS)[number];
/** How the fields edit (their scopes, and whether $EDITOR edits them); the host also adds what is typed. */
const KINDS: Record<Field, TextFieldKind> = { name: 'line', value: 'long', file: 'line', host: 'line' };

/** The labels' column: the longest ("or file") behind the focus marker, and a space; the hosts line keeps it too. */
const LABEL_WIDTH = 10;

export interface SecretFormProps {
  /** Where it goes, for the title: "workspace" or the intern's name. */
  scopeLabel: string;
  /** Replacing: the name is fixed and the hosts start as they were. */
  existing?: { name: string; hosts: string[] };
  /** Adding: the names this scope has already (what is loaded), so that a name taken is not replaced unasked. */
  taken?: readonly string[];
  onSave: (name: string, body: VaultSecretWrite) => Promise<void>;
  onClose: () => void;
}

/** The most a value's file may hold: a value's longest, each character up to four bytes of UTF-8. */
const VALUE_FILE_BYTES = LIMITS.secretValue.max * 4;

/**
 * Reads a value from a file: the whole file less one trailing newline. A regular file only, read
 * with a cap: a device such as /dev/zero or a FIFO would otherwise hold the TUI's one thread.
 */
export function readValueFile(path: string): { value: string } | { error: string } {
  try {
    return { value: readRegularFile(path.replace(/^~(?=\/)/, process.env.HOME ?? '~'), VALUE_FILE_BYTES).replace(/\r?\n$/, '') };
  } catch (e) {
    return { error: `could not read ${path}: ${explainFileError(e)}` };
  }
}

export function SecretForm({ scopeLabel, existing, taken = [], onSave, onClose }: SecretFormProps) {
  const { nav, active, setScopes, pane } = useTui();
  const [name, setName] = useState(existing?.name ?? '');
  const [value, setValue] = useState('');
  const [file, setFile] = useState('');
  const [hosts, setHosts] = useState<string[]>(existing?.hosts ?? []);
  const [host, setHost] = useState('');
  const [focus, setFocus] = useState(existing ? 1 : 0);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const editField = useFieldEditor(KINDS, ['value']);
  const field: Field = FIELDS[focus]!;
  // Anything typed counts, a host not yet added included: esc would throw it away.
  const startHosts = existing?.hosts ?? [];
  const dirty =
    (!existing && name !== '') || value !== '' || file !== '' || host !== '' || hosts.length !== startHosts.length || hosts.some((h, i) => h !== startHosts[i]);
  const discard = useDiscard(dirty, onClose);
  // Adding under a name this scope has already replaces its value and hosts: asked first (a names the
  // action "add"; e is the one that replaces), with what a yes would send.
  const [replacing, setReplacing] = useState<{ name: string; body: VaultSecretWrite } | null>(null);
  const asking = discard.confirmingDiscard || replacing !== null;
  const nameTaken = !existing && taken.includes(name);

  useLayoutEffect(
    () => setScopes(asking ? ['confirm'] : field === 'host' ? ['formSave', 'form', 'hostField', 'text'] : ['formSave', 'form', ...TEXT_FIELD_SCOPES[KINDS[field]]]),
    [setScopes, field, asking],
  );

  const nameError = existing || name === '' ? null : checkSecretName(name);
  const hostError = host.trim() === '' ? null : ((r) => ('error' in r ? r.error : null))(normaliseHost(host));
  const valueError = value === '' ? null : checkSecretValue(value);

  const addHost = () => {
    const r = normaliseHost(host);
    if ('error' in r) return;
    if (!hosts.includes(r.host)) setHosts([...hosts, r.host]);
    setHost('');
  };

  const save = async () => {
    if (saving) return;
    let all = hosts;
    if (host.trim() !== '') {
      const r = normaliseHost(host);
      if ('error' in r) return nav.flash(`host: ${r.error}`, 'error');
      all = hosts.includes(r.host) ? hosts : [...hosts, r.host];
      setHosts(all);
      setHost('');
    }
    const finalName = existing?.name ?? name;
    const n = checkSecretName(finalName);
    if (n) {
      setFocus(0);
      return nav.flash(`name ${n}`, 'error');
    }
    let secret = value;
    if (secret === '' && file.trim() !== '') {
      const r = readValueFile(file.trim());
      if ('error' in r) {
        setFocus(2);
        return nav.flash(r.error, 'error');
      }
      secret = r.value;
    }
    const v = checkSecretValue(secret);
    if (v) {
      setFocus(1);
      return nav.flash(`value ${v}`, 'error');
    }
    const h = validateHosts(all);
    if ('error' in h) {
      setFocus(3);
      return nav.flash(h.error, 'error');
    }
    const body = { value: secret, hosts: h.hosts };
    if (!existing && taken.includes(finalName)) return setReplacing({ name: finalName, body });
    await send(finalName, body);
  };

  const send = async (finalName: string, body: VaultSecretWrite) => {
    setSaving(true);
    setError(undefined);
    try {
      await onSave(finalName, body);
    } catch (e) {
      setError(e);
      setSaving(false);
    }
  };

  const answerReplace = (yes: boolean) => {
    const pending = replacing;
    setReplacing(null);
    if (yes && pending) void send(pending.name, pending.body);
    else setFocus(0);
  };

  useKeys((input, key) => {
    if (matches('formCancel', input, key)) return discard.cancel();
    if (matches('save', input, key)) return void save();
    const step = matches('nextField', input, key) ? 1 : matches('prevField', input, key) ? -1 : 0;
    if (step !== 0) {
      const order = existing ? FIELDS.slice(1) : FIELDS;
      const i = order.indexOf(field as never);
      const next = order[(i + step + order.length) % order.length]!;
      return setFocus(FIELDS.indexOf(next));
    }
    if (field === 'host') {
      if (matches('addHost', input, key)) return addHost();
      if (matches('erase', input, key) && host === '' && hosts.length > 0) return setHosts(hosts.slice(0, -1));
    }
    if (matches('editor', input, key)) return editField(field, () => value, (_, text) => setValue(text));
  }, active && !saving && !asking);

  const on = (f: Field) => active && !saving && !asking && field === f;
  // The fields scroll with the focus on a short pane (FieldWindow), in a row the panel's border and
  // padding leave; the host's field carries the line of hosts added under it.
  const rowWidth = pane.columns - 4;
  const hostField = windowedTextField(
    'host',
    { label: 'host', value: host, onChange: setHost, focused: on('host'), error: hostError, note: `${keyLabel('addHost')} adds · ${hosts.length}/${LIMITS.secretHosts.max}`, labelWidth: LABEL_WIDTH, placeholder: 'api.example.com' },
    rowWidth,
  );
  const fields: WindowedField[] = [
    ...(existing
      ? []
      : [windowedTextField('name', { label: 'name', value: name, onChange: setName, focused: on('name'), error: nameError, note: nameTaken ? `${sanitize(scopeLabel)} has one: saving replaces it` : 'a-z 0-9 _', labelWidth: LABEL_WIDTH }, rowWidth)]),
    windowedTextField(
      'value',
      { label: 'value', value, onChange: setValue, focused: on('value'), masked: true, error: valueError, note: value === '' ? `${keyLabel('editor')}: $EDITOR` : `${counted(value.length, 'char')}, hidden`, labelWidth: LABEL_WIDTH, placeholder: 'typed hidden' },
      rowWidth,
    ),
    windowedTextField('file', { label: 'or file', value: file, onChange: setFile, focused: on('file'), note: value === '' ? 'a path to read the value from' : 'unused: a value is typed', labelWidth: LABEL_WIDTH, placeholder: 'none' }, rowWidth),
    {
      key: 'host',
      rows: hostField.rows + 1,
      node: (
        <>
          {hostField.node}
          <Text wrap="truncate-end">
            <Text color={theme.muted}>{'  hosts'.padEnd(LABEL_WIDTH)}</Text>
            {hosts.length === 0 ? <Text color={theme.warning}>none yet: it is only ever sent to its hosts</Text> : hosts.map((h) => sanitize(h)).join(', ')}
          </Text>
        </>
      ),
    },
  ];
  // What stands around the fields: the vault screen's title, the panel's border and title, and an
  // error, a spinner or a question when they show. (The keys are the footer's.)
  const replaceQuestion = replacing ? `${sanitize(scopeLabel)} has ${sanitize(replacing.name)} already: replace its value and hosts?` : '';
  const around = 4 + (error ? 1 : 0) + (saving ? 1 : 0) + (discard.confirmingDiscard ? 1 : 0) + (replacing ? confirmRows(replaceQuestion, pane.columns - 4) : 0);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.accent} paddingX={1} flexShrink={0}>
      {/* One row, as `around` counts it: a long secret name wrapped it over every field of a small terminal. */}
      <Text bold color={theme.accent} wrap="truncate-end">
        {existing ? `Replace ${sanitize(existing.name)}` : 'Add a secret'} <Text color={theme.muted}>{existing ? 'in' : 'to'} {sanitize(scopeLabel)}</Text>
      </Text>
      {error ? <ErrorView error={error} compact retry="save" /> : null}
      {saving ? <Spinner label="Saving" /> : null}
      <FieldWindow fields={fields} focus={fields.findIndex((f) => f.key === field)} room={pane.rows - around} />
      {/* The question never repeats the value: it is only ever drawn as its length. */}
      <Confirm open={discard.confirmingDiscard} question="Discard your changes?" onAnswer={discard.answerDiscard} active={active} />
      <Confirm open={replacing !== null} question={replaceQuestion} onAnswer={answerReplace} active={active} />
    </Box>
  );
}
