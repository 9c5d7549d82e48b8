import type { ServerFeature } from '@glossa/server/feature';
import { startFleetVoiceJobs } from './fleet-queue.js';
import { fleetVoiceJobHandler, VOICE_JOB_ROUTES } from './jobs.js';
import { voiceLanguageObjects } from './languages.js';
import { createVoiceSessionRoute, reconnectVoiceSessionRoute } from './routes.js';
import { registerVoiceSocket } from './socket.js';
import { closeVoiceDatabase, SPOKEN_TERMS_ROUTES } from './spoken-terms.js';
import { fleetTranslateJobHandler, VOICE_TRANSLATE_JOB_ROUTES } from './translate-jobs.js';

/**
 * Voice for `@glossa/server`: realtime sessions (the WebSocket stream), spoken terms and voice jobs, with
 * speech recognized by pocketsphinx and spoken by espeak-ng (Debian packages; see the readme). Voice jobs
 * run in this process on `voice.sqlite`, or, when the server has `databaseUrl` (a fleet), on PostgreSQL and
 * pg-boss shared by every instance.
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
    start(context, log) {
      const url = context.options.databaseUrl;
      if (url === undefined) return { close: async () => {} };
      return startFleetVoiceJobs(url, context, log, {
        voice: fleetVoiceJobHandler(context, log),
        translate: fleetTranslateJobHandler(context, log),
      });
    },
  };
}
