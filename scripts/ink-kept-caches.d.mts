export declare class KeptMap<K, V> {
  constructor(limit: number);
  readonly limit: number;
  get(key: K): V | undefined;
  set(key: K, value: V): this;
  has(key: K): boolean;
  readonly size: number;
}
export declare const KEPT: { styledChars: number; widths: number; blockWidths: number; measured: number };
export declare const KEPT_CACHE_FILES: RegExp;
export declare function keptCachesSource(file: string, source: string, keptMapUrl: string): string;
