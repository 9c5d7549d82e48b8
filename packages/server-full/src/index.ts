import type { CliSettings, ServerFeature } from '@glossa/server';
import { type DocumentOptions, documentsFeature } from '@glossa/server-documents';
import { languageToolsFeature, type QualityOptions } from '@glossa/server-language-tools';
import { voiceFeature } from '@glossa/server-voice';

export * from '@glossa/server';

/**
 * Every feature package of the server: documents, language tools, voice. `options` are the feature
 * settings of `glossa-server` (flags, `GLOSSA_*` variables, config file): `documents` for documentsFeature, `quality` for the language tools' quality evaluation.
 */
export function allFeatures(options: CliSettings['features'] = {}): ServerFeature[] {
  return [
    documentsFeature((options.documents ?? {}) as DocumentOptions),
    languageToolsFeature({ quality: (options.quality ?? {}) as QualityOptions }),
    voiceFeature(),
  ];
}
