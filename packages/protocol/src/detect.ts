import { type Static, Type } from '@sinclair/typebox';
import { StringEnum } from './common.js';
import { DETECTION_LANGUAGES } from './languages.js';
import { MAX_DETECT_TEXTS } from './limits.js';

export const DETECTION_STATUSES = [
  'success',
  'insufficient_confidence',
  'unsupported_language',
  'no_language_detected',
] as const;
export type DetectionStatus = (typeof DETECTION_STATUSES)[number];

/** POST /v3/detect/language body (JSON, or form with repeated `text` fields). */
export const DetectRequest = Type.Object(
  {
    text: Type.Array(Type.String(), {
      minItems: 1,
      maxItems: MAX_DETECT_TEXTS,
      description: 'each text is processed separately',
    }),
  },
  { $id: 'DetectRequest', additionalProperties: false },
);
export type DetectRequest = Static<typeof DetectRequest>;

/** One result: `detected_language` is present only when `detection_status` is `success`. */
export const DetectionResult = Type.Object({
  detection_status: StringEnum(DETECTION_STATUSES),
  detected_language: Type.Optional(StringEnum(DETECTION_LANGUAGES)),
});
export type DetectionResult = Static<typeof DetectionResult>;

export const DetectResponse = Type.Object(
  { results: Type.Array(DetectionResult) },
  { $id: 'DetectResponse' },
);
export type DetectResponse = Static<typeof DetectResponse>;
