import { describe, expect, it } from 'vitest';
import { DomainError, notFound, type DomainErrorCode } from '../errors/domain-error.js';
import { domainProblem } from './responses.js';

describe('a domain failure as the admin API answers it', () => {
  it.each<[DomainErrorCode, number, string]>([
    ['invalid', 400, 'Bad Request'],
    ['not_found', 404, 'Not Found'],
    ['conflict', 409, 'Conflict'],
  ])('%s is a %i problem with the detail kept', (code, status, title) => {
    const response = domainProblem(new DomainError(code, 'the message', { detail: 'The detail: kept as it is' }));
    expect(response.status).toBe(status);
    expect(response.headers).toEqual({ 'content-type': 'application/problem+json' });
    expect(JSON.parse(response.body as string)).toEqual({ type: 'about:blank', title, status, detail: 'The detail: kept as it is' });
  });

  it('takes the message as the detail unless told otherwise, and lists the parts of the input that are wrong', () => {
    expect(JSON.parse(domainProblem(notFound('host', 'h1')).body as string)).toMatchObject({ status: 404, detail: 'No host with id h1' });
    const errors = [{ ruleId: 'r', position: 3, message: 'Unexpected token' }];
    const body = JSON.parse(domainProblem(new DomainError('invalid', 'rule r: Unexpected token (at 3)', { errors })).body as string) as object;
    expect(Object.keys(body)).toEqual(['type', 'title', 'status', 'detail', 'errors']);
    expect(body).toMatchObject({ status: 400, detail: 'rule r: Unexpected token (at 3)', errors });
  });
});
