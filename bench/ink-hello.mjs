// The start-up reference: the smallest Ink app, bundled by bench/run.ts the way the CLI is bundled.
import React from 'react';
import { Text, render } from 'ink';

const app = render(React.createElement(Text, null, 'hello from ink'));
setTimeout(() => app.unmount(), 500);
