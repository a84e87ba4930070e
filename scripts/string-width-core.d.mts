export declare const NOT_SIMPLE: 255;
export type StringWidth = (input: string, options?: { ambiguousIsNarrow?: boolean; countAnsiEscapeCodes?: boolean }) => number;
export declare function simpleWidthRuns(realWidth: StringWidth): number[];
export declare function createStringWidth(runs: number[], loadReal: () => StringWidth, stripAnsi: (text: string) => string): StringWidth;
