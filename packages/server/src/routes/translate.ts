import { ENDPOINTS, normalizeReportingTag, REPORTING_TAG_HEADER } from '@glossa/protocol';
import { badRequest } from '../errors.js';
import { defineRoute } from '../http/route.js';
import { translateRequest } from '../translate/pipeline.js';

/** POST /v2/translate; the reporting tag header attributes the request's usage (custom-tag analytics). */
export const translateRoute = defineRoute(
  ENDPOINTS.translateText,
  async ({ body, caller, request, context }) => {
    const header = request.headers[REPORTING_TAG_HEADER];
    let customTag = '';
    if (header !== undefined) {
      const tag = normalizeReportingTag(header);
      if (!tag.ok) throw badRequest(tag.message);
      customTag = tag.tag;
    }
    return translateRequest(body, caller, customTag, context);
  },
  { compiledResponse: true },
);
