import { refuseEarlierJobStores, type ServerFeature } from '@glossa/server/feature';
import { DEFAULT_CHUNK_SECONDS } from './chunks.js';
import { openFleetVoice } from './fleet-store.js';
import { VOICE_JOB_ROUTES } from './job-routes.js';
import { registerVoiceJobs, removeAudioCopies } from './job-support.js';
import { voiceLanguageObjects } from './languages.js';
import { createVoiceSessionRoute, reconnectVoiceSessionRoute } from './routes.js';
import { registerVoiceSocket } from './socket.js';
import { closeVoiceDatabase, SPOKEN_TERMS_ROUTES } from './spoken-terms.js';
import { VOICE_TRANSLATE_JOB_ROUTES } from './translate-routes.js';

export interface VoiceFeatureOptions {
  /**
   * Seconds of audio a voice job recognizes between two checkpoints (default 60): a job taken over after a
   * crash recognizes again at most one chunk. Each chunk is cut where the audio is quietest in its second half.
   */
  readonly jobChunkSeconds?: number;
}

/**
 * Voice for `@glossa/server`: realtime sessions (the WebSocket stream), spoken terms and voice jobs, with
 * speech recognized by pocketsphinx and spoken by espeak-ng (Debian packages; see the readme). Voice jobs
 * of both interfaces are kinds on the server's job runner (`voice/transcribe`, `voice/translate`), their
 * audio and results its job files; spoken terms live in `voice.sqlite`, or, when the server has
 * `databaseUrl` (a fleet), in PostgreSQL shared by every instance.
 */
export function voiceFeature(options: VoiceFeatureOptions = {}): ServerFeature {
  const chunkSeconds = options.jobChunkSeconds ?? DEFAULT_CHUNK_SECONDS;
  if (!(chunkSeconds >= 1)) throw new Error('voiceFeature: jobChunkSeconds must be at least 1.');
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
    async start(context, log) {
      removeAudioCopies(context);
      // The job records of a version before the runner held voice jobs (with their audio): before the
      // migrations, which would count a database of that version as migrated.
      await refuseEarlierJobStores(context, {
        tables: { file: 'voice.sqlite', names: ['voice_jobs', 'voice_translate_jobs'] },
        folders: ['voice-jobs'],
      });
      const url = context.options.databaseUrl;
      const fleet =
        url === undefined
          ? undefined
          : openFleetVoice(url, context, (error) =>
              log.error({ err: error }, 'voice storage could not start'),
            );
      registerVoiceJobs(context, log, chunkSeconds);
      context.metrics.gauge(
        'glossa_voice_job_queue_depth',
        'Voice jobs queued or running (both interfaces; on PostgreSQL, of every instance).',
        () => context.jobs.count(['voice/transcribe', 'voice/translate'], ['queued', 'running']),
      );
      return { close: async () => fleet?.close() };
    },
  };
}
