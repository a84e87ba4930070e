export declare const NOT_SIMPLE: 255;
export type StringWidth = (input: string, options?: { ambiguousIsNarrow?: boolean; countAnsiEscapeCodes?: boolean }) => number;
export declare function simpleWidthRuns(realWidth: StringWidth): number[];
export declare function createStringWidth(runs: number[], loadReal: () => StringWidth, stripAnsi: (text: string) => string): StringWidth;
export declare function widthTable(runs: number[]): Uint8Array;
export interface GraphemeSegments extends Iterable<Intl.SegmentData> {
  containing(index?: number): Intl.SegmentData | undefined;
}
export declare function createGraphemeSegmenter(runs: number[], makeReal: () => Intl.Segmenter): { segment(input: string): GraphemeSegments };
