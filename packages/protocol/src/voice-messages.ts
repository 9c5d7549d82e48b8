import { type Static, Type } from '@sinclair/typebox';
import { VoiceServerMessage } from './voice.js';

/**
 * Synthesized speech of one translation, sent after the `translation` message with the same `segment_id`
 * and `target_language` when the session request asked for `target_media_content_type`. `audio` is the
 * base64 of a complete file of that content type (`audio/wav`).
 */
export const VoiceSpeechMessage = Type.Object(
  {
    type: Type.Literal('speech'),
    segment_id: Type.Integer({ minimum: 0 }),
    target_language: Type.String(),
    content_type: Type.String(),
    audio: Type.String({ contentEncoding: 'base64' }),
  },
  { $id: 'VoiceSpeechMessage' },
);
export type VoiceSpeechMessage = Static<typeof VoiceSpeechMessage>;

/** Every JSON message the voice WebSocket sends: `VoiceServerMessage` plus `speech` (JSON Schema via TypeBox). */
export const VoiceStreamMessage = Type.Union([...VoiceServerMessage.anyOf, VoiceSpeechMessage], {
  $id: 'VoiceStreamMessage',
});
export type VoiceStreamMessage = Static<typeof VoiceStreamMessage>;
