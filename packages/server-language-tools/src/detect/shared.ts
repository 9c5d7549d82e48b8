import { createLanguageDetector, type LanguageDetector } from './detector.js';

let shared: Promise<LanguageDetector> | undefined;

/** The process's language detector, loaded on first use and shared by detect and write. */
export function sharedLanguageDetector(): Promise<LanguageDetector> {
  shared ??= createLanguageDetector();
  return shared;
}
