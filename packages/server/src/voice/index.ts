import type { Route } from '../http/route.js';
import { VOICE_JOB_ROUTES } from './jobs.js';
import { createVoiceSessionRoute, reconnectVoiceSessionRoute } from './routes.js';
import { SPOKEN_TERMS_ROUTES } from './spoken-terms.js';

export { voiceLanguageObjects } from './languages.js';
export { registerVoiceSocket } from './socket.js';

/** The voice endpoints served over HTTP (the WebSocket is registered by `registerVoiceSocket`). */
export const VOICE_ROUTES: readonly Route[] = [
  createVoiceSessionRoute,
  reconnectVoiceSessionRoute,
  ...SPOKEN_TERMS_ROUTES,
  ...VOICE_JOB_ROUTES,
];
