import type { ServerFeature } from '@glossa/server/feature';
import { VOICE_JOB_ROUTES } from './jobs.js';
import { voiceLanguageObjects } from './languages.js';
import { createVoiceSessionRoute, reconnectVoiceSessionRoute } from './routes.js';
import { registerVoiceSocket } from './socket.js';
import { closeVoiceDatabase, SPOKEN_TERMS_ROUTES } from './spoken-terms.js';
import { VOICE_TRANSLATE_JOB_ROUTES } from './translate-jobs.js';

/**
 * Voice for `@glossa/server`: realtime sessions (the WebSocket stream), spoken terms and voice jobs, with
 * speech recognized by pocketsphinx and spoken by espeak-ng (Debian packages; see the readme).
 */
export function voiceFeature(): ServerFeature {
  return {
    name: '@glossa/server-voice',
    routes: [
      createVoiceSessionRoute,
      reconnectVoiceSessionRoute,
      ...SPOKEN_TERMS_ROUTES,
      ...VOICE_JOB_ROUTES,
      ...VOICE_TRANSLATE_JOB_ROUTES,
    ],
    resources: { voice: ({ engines }) => voiceLanguageObjects(engines) },
    plugin(app, context) {
      registerVoiceSocket(app, context);
      app.addHook('onClose', async () => closeVoiceDatabase(context));
    },
  };
}
