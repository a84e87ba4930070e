import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/client/errors.js';
import { CREDENTIAL_SOURCES, ROUTES, routeLabel } from '../../../src/contract/routes.js';
import { explain } from '../../../src/tui/components/ErrorView.js';

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
