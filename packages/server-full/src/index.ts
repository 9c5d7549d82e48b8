import type { ServerFeature } from '@glossa/server';
import { documentsFeature } from '@glossa/server-documents';
import { languageToolsFeature } from '@glossa/server-language-tools';
import { voiceFeature } from '@glossa/server-voice';

export * from '@glossa/server';

/** Every feature package of the server: documents, language tools, voice. */
export function allFeatures(): ServerFeature[] {
  return [documentsFeature(), languageToolsFeature(), voiceFeature()];
}
