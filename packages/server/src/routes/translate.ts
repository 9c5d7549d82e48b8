import {
  ENDPOINTS,
  formatLeftWords,
  KEPT_SOURCE_HEADER,
  LEFT_WORDS_HEADER,
  normalizeReportingTag,
  REPORTING_TAG_HEADER,
} from '@glossa/protocol';
import { withKeptSource } from '../engines/kept-source.js';
import { badRequest } from '../errors.js';
import { defineRoute } from '../http/route.js';
import { translateRequest } from '../translate/pipeline.js';

/** POST /v2/translate; the reporting tag header attributes the request's usage (custom-tag analytics). */
export const translateRoute = defineRoute(
  ENDPOINTS.translateText,
  async ({ body, caller, request, reply, context }) => {
    const header = request.headers[REPORTING_TAG_HEADER];
    let customTag = '';
    if (header !== undefined) {
      const tag = normalizeReportingTag(header);
      if (!tag.ok) throw badRequest(tag.message);
      customTag = tag.tag;
    }
    // Texts holding a segment every engine failed (kept in the source language), and texts translated with
    // ordinary words left in the source language: Glossa's own headers.
    const { result, kept, left } = await withKeptSource(
      body.text,
      () => translateRequest(body, caller, customTag, context),
      (answer) => answer.translations.map((translation) => translation.text),
    );
    if (kept.length > 0) reply.header(KEPT_SOURCE_HEADER, kept.join(','));
    const leftWords = formatLeftWords(left);
    if (leftWords !== undefined) reply.header(LEFT_WORDS_HEADER, leftWords);
    return result;
  },
  { compiledResponse: true },
);
