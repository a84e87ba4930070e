/**
 * The TUI's first requests, sent before the TUI has loaded: the CLI starts them as soon as it has
 * a client, so their round trips run while Ink loads, and the first screen's calls get answers
 * already on their way. Each early answer goes to the first call of its kind only, and only when
 * that call asks the same thing; every other call goes to the service as usual.
 */
import type { InternList, InternListQuery } from '../contract/intern.js';
import type { CallOptions, InternApi } from './types.js';

/** The page the intern list asks for first (and the size of each page it loads after it). */
export const FIRST_INTERN_PAGE = { limit: 50 } as const satisfies InternListQuery;

/** Same query, ignoring keys set to undefined and their order. */
function sameQuery(a: object | undefined, b: object): boolean {
  const norm = (q: object | undefined) => JSON.stringify(Object.entries(q ?? {}).filter(([, v]) => v !== undefined).sort(([x], [y]) => (x < y ? -1 : 1)));
  return norm(a) === norm(b);
}

/** The early answer, as the caller's own call would end: rejected at once if its signal aborts. */
function handOver<T>(early: Promise<T>, opts: CallOptions | undefined): Promise<T> {
  const signal = opts?.signal;
  if (!signal) return early;
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    if (signal.aborted) return abort();
    signal.addEventListener('abort', abort, { once: true });
    early.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

export interface Prefetched {
  api: InternApi;
  /**
   * The first page, if its answer has already arrived and nobody has taken it yet: the list can then
   * draw it in its very first frame. Taken once; after that (or before the answer) undefined.
   */
  takeFirstPage: () => InternList | undefined;
  /**
   * Resolves once the first page's answer has been handled (arrived or failed), or after `turns`
   * turns of the event loop when it has not: an answer already read from the socket, or about to
   * be, is then in the first frame, and nothing waits on a service that has not answered yet.
   */
  settled: (turns: number) => Promise<void>;
}

export function prefetchFirstScreen(api: InternApi): Prefetched {
  let list: ReturnType<InternApi['listInterns']> | undefined = api.listInterns({ ...FIRST_INTERN_PAGE });
  let key: ReturnType<InternApi['getKeyInfo']> | undefined = api.configured.api_key ? api.getKeyInfo() : undefined;
  let arrived: InternList | undefined;
  let answered = false;
  // Nobody may ever ask (the user quits at once): an unclaimed failure is not an unhandled rejection.
  list.then((page) => (arrived = page), () => undefined).finally(() => (answered = true));
  key?.catch(() => undefined);
  const takeFirstPage = () => {
    if (list === undefined || arrived === undefined) return undefined;
    list = undefined;
    return arrived;
  };
  const overrides: Partial<InternApi> = {
    listInterns: (query, opts) => {
      const early = list;
      list = undefined;
      return early !== undefined && sameQuery(query, FIRST_INTERN_PAGE) ? handOver(early, opts) : api.listInterns(query, opts);
    },
    getKeyInfo: (opts) => {
      const early = key;
      key = undefined;
      return early !== undefined ? handOver(early, opts) : api.getKeyInfo(opts);
    },
  };
  const wrapped = new Proxy(api, {
    get(target, prop, receiver) {
      if (prop in overrides) return overrides[prop as keyof InternApi];
      const value: unknown = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  const settled = async (turns: number) => {
    for (let turn = 0; turn < turns && !answered; turn++) await new Promise<void>((next) => setImmediate(next));
  };
  return { api: wrapped, takeFirstPage, settled };
}
