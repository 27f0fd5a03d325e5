import type { ErrorCodeInfo } from '../errors/error-code-info.js';
import { ERROR_CODES, type ErrorCode } from '../errors/registry.js';
import { builder } from './builder.js';

type RegisteredError = ErrorCodeInfo & { readonly code: ErrorCode };

const ErrorCodeRef = builder.objectRef<RegisteredError>('ErrorCode').implement({
  description: 'One entry of the closed error registry. Branch on `code`, never on the message.',
  fields: (t) => ({
    code: t.exposeString('code', { description: 'The code, as it appears in `errors[].extensions.code`.' }),
    meaning: t.exposeString('meaning', { description: 'What it means.' }),
    retryable: t.exposeBoolean('retryable', { description: 'Whether the same operation may succeed later.' }),
    hint: t.exposeString('hint', {
      description: "What to do about it; an error's `extensions.hint` is this unless a sharper one fits.",
    }),
  }),
});

builder.queryField('errorCodes', (t) =>
  t.field({
    type: [ErrorCodeRef],
    description: 'Every code that can appear in `errors[].extensions.code`.',
    resolve: () => Object.entries(ERROR_CODES).map(([code, info]) => ({ code: code as ErrorCode, ...info })),
  }),
);
