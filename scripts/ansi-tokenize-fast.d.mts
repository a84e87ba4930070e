import type { StyledChar } from '@alcalzone/ansi-tokenize';

export * from '@alcalzone/ansi-tokenize';
export declare function styledCharsToString(chars: StyledChar[]): string;
