/**
 * Stdin, one key per chunk. Ink reads what arrives at once as one input, so
 * "openai\r" typed fast (or sent by a script) reaches every useInput as one
 * event. This stream sits between the terminal and Ink's `render({ stdin })`
 * and hands Ink each key as its own chunk (keyParse.tokenize), so every
 * useInput, ours or a package's, sees one key per event; a bracketed paste
 * becomes one marked chunk, and DEL becomes BS (keyParse.inkKey), so that Ink tells
 * backspace from the Delete key. A mouse report (attach/mouse.ts) never reaches Ink, which
 * would read it as typed text: it is emitted as a 'mouse' event (hooks/useMouse.ts hears it).
 * While the attach screen owns the terminal the bytes go straight to it as they came
 * (`attached`), pastes, reports and all, not through Ink.
 */
import { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { isMouseReport, parseMouse, unfinishedReport } from '../attach/mouse.js';
import { inkKey, tokenize } from './keyParse.js';
import { ESC } from './terminal.js';

export class KeySplitter extends Readable {
  /**
   * While attached: each chunk goes here as it came, at once, instead of to Ink (through Ink's
   * stream, parser and input events, a keystroke's echo took about 0.7 ms more at the median).
   */
  attached: ((chunk: string) => void) | null = null;
  private rest = '';
  private flushTimer: NodeJS.Timeout | undefined;
  /** A character whose bytes a read cut in two (a long paste arrives in 4 KiB reads) is held for its rest. */
  private readonly decoder = new StringDecoder('utf8');
  private readonly onData = (chunk: Buffer | string) => this.feed(typeof chunk === 'string' ? chunk : this.decoder.write(chunk));

  constructor(private readonly source: NodeJS.ReadStream) {
    // Object mode: each read() returns one key, never the buffered keys joined.
    super({ objectMode: true, read: () => undefined });
    source.on('data', this.onData);
    source.pause();
  }

  get isTTY(): boolean {
    return Boolean(this.source.isTTY);
  }

  setRawMode(mode: boolean): this {
    this.source.setRawMode?.(mode);
    if (mode) this.source.resume();
    else this.source.pause();
    return this;
  }

  override setEncoding(_encoding: BufferEncoding): this {
    // Chunks are strings already.
    return this;
  }

  ref(): this {
    this.source.ref();
    return this;
  }

  unref(): this {
    this.source.unref();
    return this;
  }

  /** Splits a chunk into keys; the tail of an unfinished sequence waits a moment for the rest. */
  feed(chunk: string): void {
    clearTimeout(this.flushTimer);
    if (this.attached) {
      const all = this.rest + chunk;
      // A mouse report cut in two by the reads waits for its rest: its start alone would be keys.
      const cut = unfinishedReport(all);
      this.rest = all.slice(all.length - cut);
      if (cut > 0) this.flushTimer = setTimeout(() => this.flushRest(), 50);
      if (cut < all.length) this.attached(all.slice(0, all.length - cut));
      return;
    }
    const { keys, rest } = tokenize(this.rest + chunk);
    this.rest = rest;
    this.pushKeys(keys);
    // A sequence cut off by the read never completes: after a moment, what came is keys after all.
    if (rest) this.flushTimer = setTimeout(() => this.flushRest(), 50);
  }

  private flushRest(): void {
    const rest = this.rest;
    this.rest = '';
    // The start of a mouse report whose end never came is dropped whole: it is no key.
    if (!rest || /^\x1b\[(?:<|M)/.test(rest)) return;
    // A paste whose end never came is still a paste; a broken escape sequence is dropped key by key.
    const { keys } = tokenize(rest.startsWith(`${ESC}[200~`) ? `${rest}${ESC}[201~` : rest.slice(1));
    if (!rest.startsWith(`${ESC}[200~`)) this.push(ESC);
    this.pushKeys(keys);
  }

  /** Keys to Ink, one a chunk; mouse reports to the 'mouse' listeners instead (one unreadable is dropped). */
  private pushKeys(keys: string[]): void {
    for (const k of keys) {
      if (!isMouseReport(k)) {
        this.push(inkKey(k));
        continue;
      }
      const report = parseMouse(k);
      if (report) this.emit('mouse', report);
    }
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    clearTimeout(this.flushTimer);
    this.source.off('data', this.onData);
    callback(error);
  }
}
