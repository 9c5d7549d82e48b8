import { describe, expectTypeOf, it } from 'vitest';
import type {
  EndpointBody,
  EndpointParams,
  EndpointQuery,
  EndpointResponse,
  Glossary,
  LanguagesQuery,
  QualityIssue,
  ResourceName,
  TranslateRequest,
  TranslateResponse,
} from '../src/index.js';

describe('types from the ENDPOINTS table', () => {
  it('gives each endpoint the static types of its schemas', () => {
    expectTypeOf<EndpointBody<'translateText'>>().toEqualTypeOf<TranslateRequest>();
    expectTypeOf<EndpointResponse<'translateText'>>().toEqualTypeOf<TranslateResponse>();
    expectTypeOf<EndpointQuery<'getLanguages'>>().toEqualTypeOf<LanguagesQuery>();
    expectTypeOf<EndpointParams<'getGlossary'>>().toEqualTypeOf<{ glossary_id: string }>();
    expectTypeOf<EndpointResponse<'getGlossary'>>().toEqualTypeOf<Glossary>();
  });

  it('types enumerated values as their literals, not as plain strings', () => {
    expectTypeOf<LanguagesQuery['resource']>().toEqualTypeOf<ResourceName>();
    expectTypeOf<QualityIssue['check']>().toEqualTypeOf<string>();
  });

  it('is undefined for the parts an endpoint lacks', () => {
    expectTypeOf<EndpointBody<'getUsage'>>().toEqualTypeOf<undefined>();
    expectTypeOf<EndpointResponse<'deleteGlossary'>>().toEqualTypeOf<undefined>();
    expectTypeOf<EndpointQuery<'translateText'>>().toEqualTypeOf<undefined>();
  });
});
