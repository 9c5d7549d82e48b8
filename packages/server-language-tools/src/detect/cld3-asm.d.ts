// cld3-asm 4 ships CommonJS without its declared type files; this is the part of its API the detector uses.
declare module 'cld3-asm' {
  export interface LanguageResult {
    readonly language: string;
    readonly probability: number;
    readonly is_reliable: boolean;
    readonly proportion: number;
  }
  export interface LanguageIdentifier {
    findLanguage(text: string): LanguageResult;
    dispose(): void;
  }
  export interface CldFactory {
    create(minBytes?: number, maxBytes?: number): LanguageIdentifier;
  }
  export function loadModule(options?: { timeout?: number }): Promise<CldFactory>;
}
