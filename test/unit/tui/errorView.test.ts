import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../../../src/client/errors.js';
import { CREDENTIAL_SOURCES, ROUTES, routeLabel } from '../../../src/contract/routes.js';
import { errorViewRows, explain } from '../../../src/tui/components/ErrorView.js';

const unauthorised = (label: string) => new ApiError(401, 401, null, false, 'nope', label);

describe('ErrorView names the credential the route table gives the route', () => {
  it('for every route with a credential', () => {
    for (const spec of Object.values(ROUTES)) {
      if (spec.credential === 'none') continue;
      const hint = explain(unauthorised(routeLabel(spec))).hint;
      expect(hint, routeLabel(spec)).toContain(CREDENTIAL_SOURCES[spec.credential].env);
    }
  });
  it('and guesses none for a route the table does not know', () => {
    expect(explain(unauthorised('GET /somewhere/byok')).hint).not.toMatch(/OPENROUTER_/);
  });
});

describe('ErrorView says what to do once', () => {
  it('hints never name a key: the retry line does, for every error that trying again may mend', () => {
    const errors = [
      new NetworkError('GET /interns', 'ECONNREFUSED', false),
      new ApiError(408, 408, 'timeout', false, 'slow', 'GET /interns'),
      new ApiError(409, 409, null, false, 'changed', 'PATCH /interns/{internId}'),
      new ApiError(502, 502, null, true, 'bad gateway', 'GET /interns'),
      new ApiError(503, 503, 'busy', true, 'busy', 'GET /interns'),
      Object.assign(new ApiError(429, 429, 'rate_limited', true, 'Rate limited', 'GET /interns'), { retryAfterMs: 45_000 }),
      new Error('boom'),
    ];
    for (const e of errors) {
      const shown = explain(e);
      expect(shown.hint, shown.title).not.toMatch(/\bpress\b/i);
      expect(shown.retryable, shown.title).toBe(true);
    }
    const lost = explain(new NetworkError('POST /interns/{internId}/provision', 'ECONNRESET', false, '127.0.0.1:9', true));
    expect([lost.title, lost.hint]).toEqual(['Connection lost mid-answer', 'The request reached the service and may have been done: look before doing it again.']);
    const limited = explain(Object.assign(new ApiError(429, 429, 'rate_limited', true, 'Rate limited', 'GET /interns'), { retryAfterMs: 45_000 }));
    expect([limited.title, limited.hint]).toEqual(['Rate limited', 'The service asks for fewer requests: wait 45 s.']);
    // Nothing to add to "try again": no hint line at all.
    expect(explain(new Error('boom')).hint).toBe('');
    expect(errorViewRows(new Error('boom'), 80, 20)).toBe(5);
    expect(errorViewRows(new NetworkError('GET /interns', 'ECONNREFUSED', false), 80, 20)).toBe(6);
    // Counted as drawn: the message and the hint wrapped at the width, the message cut to a third of the pane.
    const long = new ApiError(400, 400, 'invalid_body', false, 'x '.repeat(200), 'PATCH /interns/{internId}');
    expect(errorViewRows(long, 40, 12)).toBe(3 + 4 + 1 + 1);
    expect(errorViewRows(long, 40, 30)).toBe(3 + 10 + 1 + 1);
  });
});

describe('ErrorView on a network failure', () => {
  it('puts the host and what happened first, the route last: on one line at 80 columns they are what must show', () => {
    const line = (e: NetworkError) => ((x) => `✖ ${x.title}: ${x.message}`)(explain(e));
    expect(line(new NetworkError('GET /interns/{internId}', 'UND_ERR_HEADERS_TIMEOUT', true, '127.0.0.1:18766'))).toBe(
      '✖ Cannot reach the service: 127.0.0.1:18766 did not answer in time (GET /interns/{internId})',
    );
    expect(line(new NetworkError('GET /interns', 'ECONNREFUSED', false, '127.0.0.1:1')).slice(0, 80)).toContain('127.0.0.1:1: ECONNREFUSED (nothing is listening');
  });
});
