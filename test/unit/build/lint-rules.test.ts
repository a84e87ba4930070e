/**
 * The lint rules that make the safe way the only way (SECURITY.md, docs/architecture.md): each is
 * run on a snippet that breaks it, at a path where it applies, and on the same snippet where it
 * does not, so a rule that stopped matching (a renamed folder, a changed selector) fails here.
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

async function messages(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

describe('lint rules', () => {
  it("forbids Ink's Text (and Transform) in the TUI outside the text primitive, which sanitises every string", async () => {
    const code = "import { Text } from 'ink';\nexport const A = (p: { s: string }) => <Text>{p.s}</Text>;\n";
    expect(await messages(code, 'src/tui/screens/Example.tsx')).toEqual([expect.stringMatching(/no-restricted-imports: .*Draw text with src\/tui\/components\/Text\.tsx/)]);
    expect(await messages("import { Transform } from 'ink';\nexport { Transform };\n", 'src/tui/Example.ts')).toEqual([expect.stringMatching(/Draw text with/)]);
    expect(await messages(code, 'src/tui/components/Text.tsx')).toEqual([]);
    expect(await messages("import { Box } from 'ink';\nexport { Box };\n", 'src/tui/Example.ts')).toEqual([]);
  });

  it('forbids a TUI component that returns strings in a fragment, which the Text around it cannot clean', async () => {
    const code = "export function Cell({ s }: { s: string }) {\n  return <>{s}</>;\n}\nexport const Tail = ({ s }: { s: string }) => <>{s.slice(1)}</>;\n";
    expect(await messages(code, 'src/tui/components/Cell.tsx')).toEqual([
      expect.stringMatching(/no-restricted-syntax: A component that returns strings in a fragment/),
      expect.stringMatching(/no-restricted-syntax: A component that returns strings in a fragment/),
    ]);
    // Elements in a fragment draw through their own Text; outside the TUI the rule does not apply.
    expect(await messages("import { Text } from './Text.js';\nexport const Cell = ({ s }: { s: string }) => <><Text>{s}</Text></>;\n", 'src/tui/components/Cell.tsx')).toEqual([]);
    expect(await messages(code, 'test/component/Cell.tsx')).toEqual([]);
  });

  it("forbids a command's direct write to stdout or stderr, which would skip Output's sanitising", async () => {
    const code = "export function run(s: string): void {\n  process.stdout.write(s);\n}\n";
    expect(await messages(code, 'src/cli/commands/example.ts')).toEqual([expect.stringMatching(/no-restricted-syntax: Write through ctx\.out/)]);
    expect(await messages(code, 'src/cli/commands/attach.ts')).toEqual([]);
  });

  it("keeps the layers apart: the TUI from the sandbox, the sandbox and the client from React and each other", async () => {
    expect(await messages("import { startSandbox } from '../sandbox/index.js';\nexport { startSandbox };\n", 'src/tui/Example.ts')).toEqual([expect.stringMatching(/The TUI never imports the sandbox/)]);
    expect(await messages("import { createClient } from '../client/index.js';\nexport { createClient };\n", 'src/sandbox/Example.ts')).toEqual([expect.stringMatching(/The sandbox never imports the client/)]);
    expect(await messages("import React from 'react';\nexport { React };\n", 'src/client/Example.ts')).toEqual([expect.stringMatching(/The client never imports React/)]);
    expect(await messages("import React from 'react';\nexport { React };\n", 'src/attach/Example.ts')).toEqual([expect.stringMatching(/attach never imports React/)]);
  });
});
