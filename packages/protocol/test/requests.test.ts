import type { TSchema } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import {
  createValidator,
  decodeForm,
  ENDPOINTS,
  type EndpointDefinition,
  type OperationId,
} from '../src/index.js';
import { CASES } from './cases/index.js';
import type { RequestPart } from './cases/types.js';

const validators = new Map<TSchema, ReturnType<typeof createValidator>>();
function validate(schema: TSchema, value: unknown) {
  let validator = validators.get(schema);
  if (!validator) {
    validator = createValidator(schema);
    validators.set(schema, validator);
  }
  return validator.validate(value);
}

const PARTS: readonly RequestPart[] = ['params', 'query', 'body'];
const endpoints = Object.entries(ENDPOINTS) as [OperationId, EndpointDefinition][];

/** The form twin of an object: arrays as repeated keys, arrays of objects as `name[0].field`, objects dotted. */
function toForm(value: Record<string, unknown>): URLSearchParams {
  const form = new URLSearchParams();
  for (const [key, item] of Object.entries(value)) {
    if (typeof item === 'object' && item !== null && !Array.isArray(item)) {
      for (const [nested, nestedValue] of toForm(item as Record<string, unknown>))
        form.append(`${key}.${nested}`, nestedValue);
    } else if (!Array.isArray(item)) form.append(key, String(item));
    else if (item.every((element) => typeof element !== 'object')) {
      for (const element of item) form.append(key, String(element));
    } else {
      item.forEach((element: Record<string, unknown>, index) => {
        for (const [field, fieldValue] of Object.entries(element))
          form.append(`${key}[${index}].${field}`, String(fieldValue));
      });
    }
  }
  return form;
}

describe.each(endpoints)('%s', (operationId, endpoint) => {
  const cases = CASES[operationId];

  it('accepts the valid example in every part it has, and has no example for parts it lacks', () => {
    for (const part of PARTS) {
      const schema = endpoint[part];
      if (!schema) {
        expect(cases.valid[part], `${part} example without a schema`).toBeUndefined();
        continue;
      }
      const result = validate(schema, cases.valid[part] ?? {});
      expect(result.ok ? 'ok' : result.message, part).toBe('ok');
    }
  });

  it('has a valid response example when it answers JSON', () => {
    if (!endpoint.response) {
      expect(cases.response).toBeUndefined();
      return;
    }
    const result = validate(endpoint.response, cases.response);
    expect(result.ok ? 'ok' : result.message).toBe('ok');
  });

  it('decodes the form twin of its query and params to the JSON example', () => {
    for (const part of ['params', 'query'] as const) {
      const schema = endpoint[part];
      const value = cases.valid[part] as Record<string, unknown> | undefined;
      if (schema && value) expect(decodeForm(toForm(value), schema)).toEqual(value);
    }
  });

  if (endpoint.encodings?.some((encoding) => encoding === 'form' || encoding === 'multipart')) {
    it('decodes the form twin of its body to the JSON example', () => {
      const body = cases.valid.body as Record<string, unknown>;
      expect(decodeForm(toForm(body), endpoint.body!)).toEqual(body);
    });
  }

  it.each((cases.accepts ?? []).map((accept) => [accept.why, accept] as const))(
    'accepts %s',
    (_why, accept) => {
      const result = validate(endpoint[accept.part]!, accept.value);
      expect(result.ok ? 'ok' : result.message).toBe('ok');
    },
  );

  it.each((cases.rejects ?? []).map((reject) => [reject.kind, reject.message, reject] as const))(
    'rejects (%s): %s',
    (_kind, message, reject) => {
      const result = validate(endpoint[reject.part]!, reject.value);
      expect(result.ok ? 'accepted' : result.message).toBe(message);
    },
  );
});
