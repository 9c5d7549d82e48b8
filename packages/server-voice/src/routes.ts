import { ENDPOINTS, normalizeReportingTag, REPORTING_TAG_HEADER } from '@glossa/protocol';
import type { ServiceContext } from '@glossa/server/feature';
import { badRequest, defineRoute, unsupportedLanguage } from '@glossa/server/feature';
import type { FastifyRequest } from 'fastify';
import {
  DEFAULT_TARGET_MEDIA_CONTENT_TYPE,
  declaredMediaType,
  SOURCE_MEDIA_CONTENT_TYPES,
  TARGET_MEDIA_CONTENT_TYPES,
} from './media.js';
import { decoderInput } from './recognizer.js';
import {
  checkVoiceLanguages,
  checkVoiceResources,
  glossarySourceTerms,
  termPronunciations,
} from './resources.js';
import type { SessionConfig, VoiceSession } from './sessions.js';
import { voiceSessions } from './sessions.js';
import { speechVoice } from './speech.js';

/** The path of the WebSocket (see `socket.ts`). */
export const VOICE_SOCKET_PATH = '/v3/voice/realtime/connect';

export function customTagOf(request: FastifyRequest): string {
  const header = request.headers[REPORTING_TAG_HEADER];
  if (header === undefined) return '';
  const tag = normalizeReportingTag(header);
  if (!tag.ok) throw badRequest(tag.message);
  return tag.tag;
}

function sessionResponse(session: VoiceSession, token: string, base: string) {
  const ws = base.replace(/^http/, 'ws');
  return {
    streaming_url: `${ws}${VOICE_SOCKET_PATH}?token=${encodeURIComponent(token)}`,
    token,
    session_id: session.id,
  };
}

const baseUrl = (context: ServiceContext, plan: 'free' | 'paid') =>
  plan === 'free' ? context.urls.free : context.urls.paid;

export const createVoiceSessionRoute = defineRoute(
  ENDPOINTS.createVoiceSession,
  async ({ body, caller, request, context }) => {
    const mediaType = body.source_media_content_type;
    const inputType = decoderInput(mediaType);
    if (inputType === undefined) {
      throw badRequest(
        `source_media_content_type: Value is not valid ('${mediaType}'); use one of ${Object.keys(SOURCE_MEDIA_CONTENT_TYPES).join(', ')}.`,
      );
    }
    const { source, targets } = checkVoiceLanguages(
      context,
      body.source_language ?? 'en',
      body.target_languages ?? [],
    );
    const { spokenTerms, glossaryId } = await checkVoiceResources(context, caller, {
      source,
      targets,
      spokenTermsId: body.spoken_terms_id,
      glossaryId: body.glossary_id,
    });
    // The public description's `formal`/`more` and `informal`/`less` lean a session's translations that way
    // into each target that has formality, the default into the others (voice has no `prefer_` values, and
    // a session has several targets): as text translation's `prefer_more`/`prefer_less` do.
    const asked = body.formality ?? 'default';
    const engineFormality: SessionConfig['formality'] =
      asked === 'default' ? 'default' : /^(formal|more|prefer_more)$/.test(asked) ? 'more' : 'less';
    const spoken = body.target_media_languages ?? [];
    for (const language of spoken) {
      if (!targets.some((target) => target.toLowerCase() === language.toLowerCase()))
        throw badRequest(`target_media_languages: ${language} is not one of target_languages.`);
    }
    const askedSpeech = body.target_media_content_type;
    let speech: string | undefined;
    if (askedSpeech !== undefined) {
      speech = declaredMediaType(askedSpeech, Object.keys(TARGET_MEDIA_CONTENT_TYPES));
      if (speech === undefined) {
        throw badRequest(
          `target_media_content_type: Value is not valid ('${askedSpeech}'); use one of ${Object.keys(TARGET_MEDIA_CONTENT_TYPES).join(', ')}.`,
        );
      }
      if (targets.length === 0) throw badRequest('target_media_content_type needs target_languages.');
    } else if (spoken.length > 0) speech = DEFAULT_TARGET_MEDIA_CONTENT_TYPE;
    // Spoken: the targets of target_media_languages, or every target when only a speech type is given.
    const speechTargets =
      speech === undefined
        ? []
        : spoken.length > 0
          ? targets.filter((target) =>
              spoken.some((language) => language.toLowerCase() === target.toLowerCase()),
            )
          : targets;
    const silent = speechTargets.find((target) => !speechVoice(target));
    if (silent) throw unsupportedLanguage(`Speech synthesis is not installed for ${silent}.`);
    const words = await termPronunciations(spokenTerms, (error) =>
      request.log.warn({ err: error }, 'spoken-term pronunciations failed'),
    );
    const { session, token } = await voiceSessions(context).create(
      { caller, customTag: customTagOf(request) },
      {
        mediaType,
        inputType,
        source,
        targets,
        formality: engineFormality,
        messageFormat: body.message_format ?? 'json',
        spokenTerms,
        glossaryTerms: await glossarySourceTerms(context, caller, source, glossaryId),
        pronunciations: words,
        glossaryId,
        speech,
        speechTargets,
      },
    );
    return sessionResponse(session, token, baseUrl(context, caller.account.plan));
  },
);

export const reconnectVoiceSessionRoute = defineRoute(
  ENDPOINTS.reconnectVoiceSession,
  async ({ query, caller, context }) => {
    const renewed = await voiceSessions(context).reissue(query.token, caller.account.id);
    // The public description declares 400/401/403 here, not 404.
    if (!renewed) throw badRequest('Invalid token: no idle voice session of this account has it.');
    return sessionResponse(renewed.session, renewed.token, baseUrl(context, caller.account.plan));
  },
);
